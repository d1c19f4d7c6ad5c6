// The guest engine's vector imports: the count forms of the elementwise, scalar, cast and
// whole-range reduction instructions, run by the emulation on the core's local buffers.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

void VecBinary(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t b,
               uint32_t bn, int32_t count, int32_t line) {
  using ascendc_guest::Binary;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an), B = Local<T>(b, bn);
    const SrcLoc loc = c.Loc(line);
    if constexpr (kArith<T>) {
      switch (static_cast<Binary>(op)) {
        case Binary::kAdd:
          return AscendC::Add(D, A, B, count, loc);
        case Binary::kSub:
          return AscendC::Sub(D, A, B, count, loc);
        case Binary::kMul:
          return AscendC::Mul(D, A, B, count, loc);
        case Binary::kMax:
          return AscendC::Max(D, A, B, count, loc);
        case Binary::kMin:
          return AscendC::Min(D, A, B, count, loc);
        case Binary::kDiv:
          if constexpr (kFloating<T>) return AscendC::Div(D, A, B, count, loc);
          break;
        default:
          break;
      }
    }
    if constexpr (std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>) {
      if (static_cast<Binary>(op) == Binary::kAnd) return AscendC::And(D, A, B, count, loc);
      if (static_cast<Binary>(op) == Binary::kOr) return AscendC::Or(D, A, B, count, loc);
    }
    Unsupported("a binary vector instruction", t);
  });
}
void VecUnary(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t count,
              int32_t line) {
  using ascendc_guest::Unary;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<Unary>(op)) {
        case Unary::kExp:
          return AscendC::Exp(D, A, count, loc);
        case Unary::kLn:
          return AscendC::Ln(D, A, count, loc);
        case Unary::kAbs:
          return AscendC::Abs(D, A, count, loc);
        case Unary::kReciprocal:
          return AscendC::Reciprocal(D, A, count, loc);
        case Unary::kSqrt:
          return AscendC::Sqrt(D, A, count, loc);
        case Unary::kRsqrt:
          return AscendC::Rsqrt(D, A, count, loc);
        case Unary::kRelu:
          return AscendC::Relu(D, A, count, loc);
      }
    }
    Unsupported("a unary vector instruction", t);
  });
}
void VecScalar(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int64_t s,
               int32_t count, int32_t line) {
  using ascendc_guest::WithScalar;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kArith<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const T v = FromBits<T>(s);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<WithScalar>(op)) {
        case WithScalar::kAdds:
          return AscendC::Adds(D, A, v, count, loc);
        case WithScalar::kMuls:
          return AscendC::Muls(D, A, v, count, loc);
        case WithScalar::kMaxs:
          return AscendC::Maxs(D, A, v, count, loc);
        case WithScalar::kMins:
          return AscendC::Mins(D, A, v, count, loc);
        case WithScalar::kLeakyRelu:
          if constexpr (kFloating<T>) return AscendC::LeakyRelu(D, A, v, count, loc);
          break;
      }
    }
    Unsupported("a vector-scalar instruction", t);
  });
}
void VecDup(const Call& c, int32_t t, uint32_t d, uint32_t dn, int64_t value, int32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AscendC::Duplicate(Local<T>(d, dn), FromBits<T>(value), count, c.Loc(line));
  });
}

void VecCast(const Call& c, int32_t dt, int32_t st, int32_t round, uint32_t d, uint32_t dn, uint32_t a, uint32_t an,
             int32_t count, int32_t line) {
  if (round < 0 || round > static_cast<int32_t>(AscendC::RoundMode::CAST_ODD))
    throw SimError(Status::RUNTIME_ERROR, "Cast: round mode " + std::to_string(round) + " out of range");
  WithType(dt, [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    WithType(st, [&](auto stag) {
      using S = typename decltype(stag)::type;
      if constexpr (ascendc_sim::CastSupported<D, S>())
        AscendC::Cast(Local<D>(d, dn), Local<S>(a, an), static_cast<AscendC::RoundMode>(round),
                      static_cast<uint32_t>(count), c.Loc(line));
      else
        Unsupported("Cast", dt * 16 + st);
    });
  });
}
void VecReduce(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t w,
               uint32_t wn, int32_t count, int32_t calIndex, int32_t line) {
  using ascendc_guest::Reduce;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an), W = Local<T>(w, wn);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<Reduce>(op)) {
        case Reduce::kSum:
          return AscendC::ReduceSum(D, A, W, count, loc);
        case Reduce::kMax:
          return AscendC::ReduceMax(D, A, W, count, calIndex != 0, loc);
        case Reduce::kMin:
          return AscendC::ReduceMin(D, A, W, count, calIndex != 0, loc);
      }
    }
    Unsupported("a whole-range reduction", t);
  });
}

}  // namespace

void DefineVectorImports(wasmtime_linker_t* l) {
  Import<VecBinary>::Define(l, "vec_binary");
  Import<VecUnary>::Define(l, "vec_unary");
  Import<VecScalar>::Define(l, "vec_scalar");
  Import<VecDup>::Define(l, "vec_dup");
  Import<VecCast>::Define(l, "vec_cast");
  Import<VecReduce>::Define(l, "vec_reduce");
}

}  // namespace ascendc_sim::guest
