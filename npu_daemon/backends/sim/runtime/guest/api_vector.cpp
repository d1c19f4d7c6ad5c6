// The guest engine's vector imports: the elementwise, vector-scalar, Duplicate, Cast and Axpy
// instructions in their count and mask/repeat forms, and the count forms of the whole-range
// reductions, run by the emulation on the core's local buffers.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::MaskKind;

template <typename T>
constexpr bool kInt = std::is_integral_v<T>;
template <typename T>
constexpr bool kReal = kFloating<T> || std::is_same_v<T, bfloat16_t>;

// A native instruction in its count form and its mask forms, isSetMask a template argument.
#define ASCENDC_GUEST_FORMS(NAME)                   \
  struct NAME {                                     \
    template <typename T, typename... A>            \
    static void Count(const A&... a) {              \
      AscendC::NAME<T>(a...);                       \
    }                                               \
    template <typename T, bool kSet, typename... A> \
    static void Masked(const A&... a) {             \
      AscendC::NAME<T, kSet>(a...);                 \
    }                                               \
  };
namespace form {
ASCENDC_GUEST_FORMS(Add)
ASCENDC_GUEST_FORMS(Sub)
ASCENDC_GUEST_FORMS(Mul)
ASCENDC_GUEST_FORMS(Div)
ASCENDC_GUEST_FORMS(Max)
ASCENDC_GUEST_FORMS(Min)
ASCENDC_GUEST_FORMS(And)
ASCENDC_GUEST_FORMS(Or)
ASCENDC_GUEST_FORMS(AddRelu)
ASCENDC_GUEST_FORMS(SubRelu)
ASCENDC_GUEST_FORMS(MulAddDst)
ASCENDC_GUEST_FORMS(FusedMulAdd)
ASCENDC_GUEST_FORMS(FusedMulAddRelu)
ASCENDC_GUEST_FORMS(Exp)
ASCENDC_GUEST_FORMS(Ln)
ASCENDC_GUEST_FORMS(Abs)
ASCENDC_GUEST_FORMS(Reciprocal)
ASCENDC_GUEST_FORMS(Sqrt)
ASCENDC_GUEST_FORMS(Rsqrt)
ASCENDC_GUEST_FORMS(Relu)
ASCENDC_GUEST_FORMS(Not)
ASCENDC_GUEST_FORMS(Adds)
ASCENDC_GUEST_FORMS(Muls)
ASCENDC_GUEST_FORMS(Maxs)
ASCENDC_GUEST_FORMS(Mins)
ASCENDC_GUEST_FORMS(LeakyRelu)
ASCENDC_GUEST_FORMS(ShiftLeft)
ASCENDC_GUEST_FORMS(ShiftRight)
}  // namespace form
#undef ASCENDC_GUEST_FORMS

// f(form) for the native instruction `op` of element type T: false where the native engine has
// none for T. Div stays floating: an integer lane dividing by zero would stop the host itself.
template <typename T, typename F>
bool OnBinary(int32_t op, F&& f) {
  using ascendc_guest::Binary;
  switch (static_cast<Binary>(op)) {
    case Binary::kAdd:
      return f(form::Add{}), true;
    case Binary::kSub:
      return f(form::Sub{}), true;
    case Binary::kMul:
      return f(form::Mul{}), true;
    case Binary::kMax:
      return f(form::Max{}), true;
    case Binary::kMin:
      return f(form::Min{}), true;
    case Binary::kAddRelu:
      return f(form::AddRelu{}), true;
    case Binary::kSubRelu:
      return f(form::SubRelu{}), true;
    case Binary::kMulAddDst:
      return f(form::MulAddDst{}), true;
    case Binary::kFusedMulAdd:
      return f(form::FusedMulAdd{}), true;
    case Binary::kFusedMulAddRelu:
      return f(form::FusedMulAddRelu{}), true;
    case Binary::kDiv:
      if constexpr (kReal<T>) return f(form::Div{}), true;
      break;
    case Binary::kAnd:
      if constexpr (kInt<T>) return f(form::And{}), true;
      break;
    case Binary::kOr:
      if constexpr (kInt<T>) return f(form::Or{}), true;
      break;
  }
  return false;
}
template <typename T, typename F>
bool OnUnary(int32_t op, F&& f) {
  using ascendc_guest::Unary;
  switch (static_cast<Unary>(op)) {
    case Unary::kRelu:
      return f(form::Relu{}), true;
    case Unary::kAbs:  // -a of a bfloat16_t lane is a float: the native Abs has no bfloat16_t form
      if constexpr (!std::is_same_v<T, bfloat16_t>) return f(form::Abs{}), true;
      break;
    case Unary::kNot:
      if constexpr (kInt<T>) return f(form::Not{}), true;
      break;
    case Unary::kExp:
      if constexpr (kReal<T>) return f(form::Exp{}), true;
      break;
    case Unary::kLn:
      if constexpr (kReal<T>) return f(form::Ln{}), true;
      break;
    case Unary::kReciprocal:
      if constexpr (kReal<T>) return f(form::Reciprocal{}), true;
      break;
    case Unary::kSqrt:
      if constexpr (kReal<T>) return f(form::Sqrt{}), true;
      break;
    case Unary::kRsqrt:
      if constexpr (kReal<T>) return f(form::Rsqrt{}), true;
      break;
  }
  return false;
}
template <typename T, typename F>
bool OnScalar(int32_t op, F&& f) {
  using ascendc_guest::WithScalar;
  switch (static_cast<WithScalar>(op)) {
    case WithScalar::kAdds:
      return f(form::Adds{}), true;
    case WithScalar::kMuls:
      return f(form::Muls{}), true;
    case WithScalar::kMaxs:
      return f(form::Maxs{}), true;
    case WithScalar::kMins:
      return f(form::Mins{}), true;
    case WithScalar::kLeakyRelu:
      if constexpr (kFloating<T>) return f(form::LeakyRelu{}), true;
      break;
    case WithScalar::kShiftLeft:
      if constexpr (kInt<T>) return f(form::ShiftLeft{}), true;
      break;
    case WithScalar::kShiftRight:
      if constexpr (kInt<T>) return f(form::ShiftRight{}), true;
      break;
  }
  return false;
}

// f(isSetMask, mask) for the lanes a mask form names: a lane count, a bit mask array, or the mask
// registers as the kernel set them (isSetMask = false: the mask argument is not read).
template <typename F>
void WithMask(int32_t kind, int64_t low, int64_t high, F&& f) {
  const uint64_t bits[2] = {static_cast<uint64_t>(low), static_cast<uint64_t>(high)};
  switch (static_cast<MaskKind>(kind)) {
    case MaskKind::kContinuous:
      return f(std::true_type{}, bits[0]);
    case MaskKind::kBits:
      return f(std::true_type{}, static_cast<const uint64_t*>(bits));
    case MaskKind::kRegister:
      return f(std::false_type{}, bits[0]);
  }
  throw SimError(Status::RUNTIME_ERROR, "mask kind code " + std::to_string(kind) + " unknown to the guest engine");
}
// A repeat parameter struct the guest passed by address: plain uint16_t fields on both sides.
static_assert(sizeof(AscendC::UnaryRepeatParams) == 8 && sizeof(AscendC::BinaryRepeatParams) == 12 &&
              sizeof(AscendC::CopyRepeatParams) == 8);
template <typename P>
P RepeatParams(const Call& c, uint32_t ptr, const char* api) {
  P p;
  std::memcpy(&p, c.Bytes(ptr, sizeof(P), api), sizeof(P));
  return p;
}

void VecBinary(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t b,
               uint32_t bn, int32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an), B = Local<T>(b, bn);
    const SrcLoc loc = c.Loc(line);
    if (!OnBinary<T>(op, [&](auto f) { decltype(f)::template Count<T>(D, A, B, count, loc); }))
      Unsupported("a binary vector instruction", t);
  });
}
void VecBinaryRep(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t b,
                  uint32_t bn, int32_t kind, int64_t low, int64_t high, int32_t repeat, uint32_t params, int32_t line) {
  const auto p = RepeatParams<AscendC::BinaryRepeatParams>(c, params, "a binary vector instruction");
  const uint8_t r = Repeat(repeat);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an), B = Local<T>(b, bn);
    const SrcLoc loc = c.Loc(line);
    WithMask(kind, low, high, [&](auto set, auto mask) {
      if (!OnBinary<T>(
              op, [&](auto f) { decltype(f)::template Masked<T, decltype(set)::value>(D, A, B, mask, r, p, loc); }))
        Unsupported("a binary vector instruction", t);
    });
  });
}
void VecUnary(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t count,
              int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an);
    const SrcLoc loc = c.Loc(line);
    if (!OnUnary<T>(op, [&](auto f) { decltype(f)::template Count<T>(D, A, count, loc); }))
      Unsupported("a unary vector instruction", t);
  });
}
void VecUnaryRep(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t kind,
                 int64_t low, int64_t high, int32_t repeat, uint32_t params, int32_t line) {
  const auto p = RepeatParams<AscendC::UnaryRepeatParams>(c, params, "a unary vector instruction");
  const uint8_t r = Repeat(repeat);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an);
    const SrcLoc loc = c.Loc(line);
    WithMask(kind, low, high, [&](auto set, auto mask) {
      if (!OnUnary<T>(op,
                      [&](auto f) { decltype(f)::template Masked<T, decltype(set)::value>(D, A, mask, r, p, loc); }))
        Unsupported("a unary vector instruction", t);
    });
  });
}
void VecScalar(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int64_t s,
               int32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an);
    const T v = FromBits<T>(s);
    const SrcLoc loc = c.Loc(line);
    if (!OnScalar<T>(op, [&](auto f) { decltype(f)::template Count<T>(D, A, v, count, loc); }))
      Unsupported("a vector-scalar instruction", t);
  });
}
void VecScalarRep(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int64_t s,
                  int32_t kind, int64_t low, int64_t high, int32_t repeat, uint32_t params, int32_t line) {
  const auto p = RepeatParams<AscendC::UnaryRepeatParams>(c, params, "a vector-scalar instruction");
  const uint8_t r = Repeat(repeat);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an);
    const T v = FromBits<T>(s);
    const SrcLoc loc = c.Loc(line);
    WithMask(kind, low, high, [&](auto set, auto mask) {
      if (!OnScalar<T>(
              op, [&](auto f) { decltype(f)::template Masked<T, decltype(set)::value>(D, A, v, mask, r, p, loc); }))
        Unsupported("a vector-scalar instruction", t);
    });
  });
}
void VecDup(const Call& c, int32_t t, uint32_t d, uint32_t dn, int64_t value, int32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AscendC::Duplicate(Local<T>(d, dn), FromBits<T>(value), count, c.Loc(line));
  });
}
void VecDupRep(const Call& c, int32_t t, uint32_t d, uint32_t dn, int64_t value, int32_t kind, int64_t low,
               int64_t high, int32_t repeat, int32_t blk, int32_t rep, int32_t line) {
  if (blk < 0 || blk > UINT16_MAX || rep < 0 || rep > UINT8_MAX)
    throw SimError(Status::RUNTIME_ERROR, "Duplicate: a stride out of its type's range");
  const uint8_t r = Repeat(repeat);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn);
    WithMask(kind, low, high, [&](auto set, auto mask) {
      AscendC::Duplicate<T, decltype(set)::value>(D, FromBits<T>(value), mask, r, static_cast<uint16_t>(blk),
                                                  static_cast<uint8_t>(rep), c.Loc(line));
    });
  });
}

// g(Tag<D>, Tag<S>) for a Cast pair the guest named; the int4b_t pairs have no guest type.
AscendC::RoundMode Round(int32_t round) {
  if (round < 0 || round > static_cast<int32_t>(AscendC::RoundMode::CAST_ODD))
    throw SimError(Status::RUNTIME_ERROR, "Cast: round mode " + std::to_string(round) + " out of range");
  return static_cast<AscendC::RoundMode>(round);
}
template <typename G>
void WithCastPair(int32_t dt, int32_t st, G&& g) {
  WithTypeOrFp8(dt, [&](auto dtag) {
    using D = typename std::decay_t<decltype(dtag)>::type;
    WithTypeOrFp8(st, [&](auto stag) {
      if constexpr (ascendc_sim::CastSupported<D, typename decltype(stag)::type>())
        g(Tag<D>{}, stag);
      else
        Unsupported("Cast", dt * 16 + st);
    });
  });
}
void VecCast(const Call& c, int32_t dt, int32_t st, int32_t round, uint32_t d, uint32_t dn, uint32_t a, uint32_t an,
             int32_t count, int32_t line) {
  const AscendC::RoundMode mode = Round(round);
  WithCastPair(dt, st, [&](auto dtag, auto stag) {
    using D = typename std::decay_t<decltype(dtag)>::type;
    using S = typename std::decay_t<decltype(stag)>::type;
    AscendC::Cast(Local<D>(d, dn), Local<S>(a, an), mode, static_cast<uint32_t>(count), c.Loc(line));
  });
}
void VecCastRep(const Call& c, int32_t dt, int32_t st, int32_t round, uint32_t d, uint32_t dn, uint32_t a, uint32_t an,
                int32_t kind, int64_t low, int64_t high, int32_t repeat, uint32_t params, int32_t line) {
  const AscendC::RoundMode mode = Round(round);
  const auto p = RepeatParams<AscendC::UnaryRepeatParams>(c, params, "Cast");
  const uint8_t r = Repeat(repeat);
  WithCastPair(dt, st, [&](auto dtag, auto stag) {
    using D = typename std::decay_t<decltype(dtag)>::type;
    using S = typename std::decay_t<decltype(stag)>::type;
    const auto D_ = Local<D>(d, dn);
    const auto A = Local<S>(a, an);
    WithMask(kind, low, high, [&](auto set, auto mask) {
      AscendC::Cast<D, S, decltype(set)::value>(D_, A, mode, mask, r, p, c.Loc(line));
    });
  });
}

// f(mode) with the round mode as a type, for the scalar Cast's template argument.
template <typename F>
decltype(auto) WithRound(AscendC::RoundMode mode, F&& f) {
  using AscendC::RoundMode;
  switch (mode) {
    case RoundMode::CAST_NONE:
      return f(std::integral_constant<RoundMode, RoundMode::CAST_NONE>{});
    case RoundMode::CAST_RINT:
      return f(std::integral_constant<RoundMode, RoundMode::CAST_RINT>{});
    case RoundMode::CAST_FLOOR:
      return f(std::integral_constant<RoundMode, RoundMode::CAST_FLOOR>{});
    case RoundMode::CAST_CEIL:
      return f(std::integral_constant<RoundMode, RoundMode::CAST_CEIL>{});
    case RoundMode::CAST_ROUND:
      return f(std::integral_constant<RoundMode, RoundMode::CAST_ROUND>{});
    case RoundMode::CAST_TRUNC:
      return f(std::integral_constant<RoundMode, RoundMode::CAST_TRUNC>{});
    case RoundMode::CAST_ODD:
      break;
  }
  return f(std::integral_constant<RoundMode, RoundMode::CAST_ODD>{});
}
int64_t ScalarCast(const Call& c, int32_t u, int32_t round, int64_t value, int32_t line) {
  const AscendC::RoundMode mode = Round(round);
  const float v = FromBits<float>(value);
  return WithType(u, [&](auto tag) -> int64_t {
    using U = typename decltype(tag)::type;
    if constexpr (sizeof(U) == 2 || sizeof(U) == 4)
      return BitsOf(
          WithRound(mode, [&](auto m) { return AscendC::Cast<float, U, decltype(m)::value>(v, c.Loc(line)); }));
    else
      Unsupported("the scalar Cast", u);
  });
}

// g(Tag<T>, Tag<U>) for an Axpy pair: dst and src of one type, or a float dst with a half src.
template <typename G>
void WithAxpyPair(int32_t dt, int32_t st, G&& g) {
  WithType(dt, [&](auto dtag) {
    using T = typename std::decay_t<decltype(dtag)>::type;
    WithType(st, [&](auto stag) {
      using U = typename std::decay_t<decltype(stag)>::type;
      if constexpr (std::is_same_v<T, U> || (std::is_same_v<T, float> && std::is_same_v<U, half>))
        g(Tag<T>{}, stag);
      else
        Unsupported("Axpy", dt * 16 + st);
    });
  });
}
void VecAxpy(const Call& c, int32_t dt, int32_t st, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int64_t s,
             int32_t count, int32_t line) {
  WithAxpyPair(dt, st, [&](auto dtag, auto stag) {
    using T = typename std::decay_t<decltype(dtag)>::type;
    using U = typename std::decay_t<decltype(stag)>::type;
    AscendC::Axpy(Local<T>(d, dn), Local<U>(a, an), FromBits<U>(s), count, c.Loc(line));
  });
}
void VecAxpyRep(const Call& c, int32_t dt, int32_t st, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int64_t s,
                int32_t kind, int64_t low, int64_t high, int32_t repeat, uint32_t params, int32_t line) {
  const auto p = RepeatParams<AscendC::UnaryRepeatParams>(c, params, "Axpy");
  const uint8_t r = Repeat(repeat);
  WithAxpyPair(dt, st, [&](auto dtag, auto stag) {
    using T = typename std::decay_t<decltype(dtag)>::type;
    using U = typename std::decay_t<decltype(stag)>::type;
    const auto D = Local<T>(d, dn);
    const auto A = Local<U>(a, an);
    WithMask(kind, low, high, [&](auto set, auto mask) {
      if constexpr (std::is_pointer_v<decltype(mask)>)
        throw SimError(Status::RUNTIME_ERROR, "Axpy has no bit mask form");
      else
        AscendC::Axpy<T, U, decltype(set)::value>(D, A, FromBits<U>(s), mask, r, p, c.Loc(line));
    });
  });
}

void VecCopyRep(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t kind, int64_t low,
                int64_t high, int32_t repeat, uint32_t params, int32_t line) {
  const auto p = RepeatParams<AscendC::CopyRepeatParams>(c, params, "Copy");
  const uint8_t r = Repeat(repeat);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      WithMask(kind, low, high,
               [&](auto set, auto mask) { AscendC::Copy<T, decltype(set)::value>(D, A, mask, r, p, c.Loc(line)); });
    } else {
      Unsupported("Copy", t);
    }
  });
}
void VecBrcb(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t repeat, int32_t blk,
             int32_t rep, int32_t line) {
  if (blk < 0 || blk > UINT16_MAX || rep < 0 || rep > UINT16_MAX)
    throw SimError(Status::RUNTIME_ERROR, "Brcb: a stride out of its type's range");
  const uint8_t r = Repeat(repeat);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AscendC::BrcbRepeatParams p;
    p.dstBlkStride = static_cast<uint16_t>(blk);
    p.dstRepStride = static_cast<uint16_t>(rep);
    AscendC::Brcb(Local<T>(d, dn), Local<T>(a, an), r, p, c.Loc(line));
  });
}
void VecIndex(const Call& c, int32_t t, uint32_t d, uint32_t dn, int64_t first, int32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AscendC::CreateVecIndex(Local<T>(d, dn), FromBits<T>(first), static_cast<uint32_t>(count), c.Loc(line));
  });
}
void VecTranspose(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 2)
      AscendC::Transpose(Local<T>(d, dn), Local<T>(a, an), c.Loc(line));
    else
      Unsupported("Transpose", t);
  });
}
void SetDeqScale(const Call&, int64_t scale) { AscendC::SetDeqScale(FromBits<half>(scale)); }

void VecReduce(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t w,
               uint32_t wn, int32_t count, int32_t option, int32_t line) {
  using ascendc_guest::Reduce;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an), W = Local<T>(w, wn);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<Reduce>(op)) {
        case Reduce::kSum:  // option: isSetMask
          return option ? AscendC::ReduceSum<T, true>(D, A, W, count, loc)
                        : AscendC::ReduceSum<T, false>(D, A, W, count, loc);
        case Reduce::kMax:  // option: calIndex
          return AscendC::ReduceMax(D, A, W, count, option != 0, loc);
        case Reduce::kMin:
          return AscendC::ReduceMin(D, A, W, count, option != 0, loc);
      }
    }
    Unsupported("a whole-range reduction", t);
  });
}

}  // namespace

void DefineVectorImports(wasmtime_linker_t* l) {
  Import<VecBinary>::Define(l, "vec_binary");
  Import<VecBinaryRep>::Define(l, "vec_binary_rep");
  Import<VecUnary>::Define(l, "vec_unary");
  Import<VecUnaryRep>::Define(l, "vec_unary_rep");
  Import<VecScalar>::Define(l, "vec_scalar");
  Import<VecScalarRep>::Define(l, "vec_scalar_rep");
  Import<VecDup>::Define(l, "vec_dup");
  Import<VecDupRep>::Define(l, "vec_dup_rep");
  Import<VecCast>::Define(l, "vec_cast");
  Import<VecCastRep>::Define(l, "vec_cast_rep");
  Import<ScalarCast>::Define(l, "scalar_cast");
  Import<VecAxpy>::Define(l, "vec_axpy");
  Import<VecAxpyRep>::Define(l, "vec_axpy_rep");
  Import<VecCopyRep>::Define(l, "vec_copy_rep");
  Import<VecBrcb>::Define(l, "vec_brcb");
  Import<VecIndex>::Define(l, "vec_index");
  Import<VecTranspose>::Define(l, "vec_transpose");
  Import<SetDeqScale>::Define(l, "set_deq_scale");
  Import<VecReduce>::Define(l, "vec_reduce");
}

}  // namespace ascendc_sim::guest
