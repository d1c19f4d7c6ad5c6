// The guest engine's high-level imports (ascendc_guest/adv.h): each call runs the native emulation's
// function of the same name, so its trace, checks and numerics are the native engine's. The native
// functions trust a kernel's shapes and tiling (on the native engine the kernel shares their address
// space anyway); here they come from the guest, so every extent they reach is checked first.
#include "../../guest/include/ascendc_guest/adv_abi.h"
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::AdvMath;
using ascendc_guest::AdvReduce;
using ascendc_guest::AdvSoftMax;

// `elems` elements of T from the tensor's start must lie in its buffer (counted in 64 bits: the
// native functions multiply shapes in 32).
template <typename T>
void Reach(const AscendC::LocalTensor<T>& t, uint64_t elems, const char* api, const char* what) {
  const uint64_t end = LocalEnd(AscendC::BufferOf(t.GetPosition()));
  if (elems > end || t.UbAddr() + elems * sizeof(T) > end)
    Refuse(api, std::string("the ") + what + " reaches " + std::to_string(elems) + " elements past UB byte " +
                    std::to_string(t.UbAddr()) + ", beyond its buffer");
}

// The guest's sharedTmpBuffer, when the call names one.
AscendC::LocalTensor<uint8_t> Tmp(uint32_t addr, uint32_t size) { return Local<uint8_t>(addr, size); }

// ---- element-wise math ------------------------------------------------------------------------

// `Reuse` is the kernel's isReuseSource: the native function leaves a lent source as the library
// does and takes its buffer as written up to the helper's maximum for that flag.
template <typename T, bool Reuse>
void MathOnce(AdvMath op, const AscendC::LocalTensor<T>& D, const AscendC::LocalTensor<T>& S,
              const AscendC::LocalTensor<uint8_t>* tmp, int64_t scalar, uint32_t n, const SrcLoc& loc) {
#define ASCENDC_GUEST_CASE(NAME) \
  case AdvMath::k##NAME:         \
    return tmp ? AscendC::NAME<T, Reuse>(D, S, *tmp, n, loc) : AscendC::NAME<T, Reuse>(D, S, n, loc);
  switch (op) {
    ASCENDC_GUEST_CASE(Asin)
    ASCENDC_GUEST_CASE(Sinh)
    ASCENDC_GUEST_CASE(Cosh)
    ASCENDC_GUEST_CASE(Asinh)
    ASCENDC_GUEST_CASE(Acosh)
    ASCENDC_GUEST_CASE(Atanh)
    ASCENDC_GUEST_CASE(Sigmoid)
    ASCENDC_GUEST_CASE(Tanh)
    ASCENDC_GUEST_CASE(Sin)
    ASCENDC_GUEST_CASE(Cos)
    ASCENDC_GUEST_CASE(Erf)
    ASCENDC_GUEST_CASE(Atan)
    ASCENDC_GUEST_CASE(Acos)
    ASCENDC_GUEST_CASE(Tan)
    ASCENDC_GUEST_CASE(Sign)
    ASCENDC_GUEST_CASE(Log)
    ASCENDC_GUEST_CASE(Log2)
    ASCENDC_GUEST_CASE(Log10)
    ASCENDC_GUEST_CASE(Gelu)
    ASCENDC_GUEST_CASE(FasterGelu)
    ASCENDC_GUEST_CASE(Silu)
    ASCENDC_GUEST_CASE(Floor)
    ASCENDC_GUEST_CASE(Ceil)
    ASCENDC_GUEST_CASE(Round)
    ASCENDC_GUEST_CASE(Trunc)
    ASCENDC_GUEST_CASE(Frac)
#undef ASCENDC_GUEST_CASE
    case AdvMath::kExp:
      // The level is a template argument of the native Exp; its only effect is the step count.
      if (scalar < 0 || scalar > 255) Refuse("Exp", "taylorExpandLevel " + std::to_string(scalar) + " out of range");
      ascendc_sim::AdvUnary(
          "Exp", 1 + static_cast<int>(scalar), D, S, tmp, Reuse, n, [](float x) { return std::exp(x); }, loc);
      return ascendc_sim::LeaveSourceReused<Reuse>(D, S, n);
    default:
      break;
  }
  const T s = FromBits<T>(scalar);
  switch (op) {
    case AdvMath::kSwish:
      if (tmp) break;
      return AscendC::Swish<T, Reuse>(D, S, n, s, loc);
    case AdvMath::kClampMax:
      return tmp ? AscendC::ClampMax<T, Reuse>(D, S, *tmp, s, n, loc) : AscendC::ClampMax<T, Reuse>(D, S, s, n, loc);
    case AdvMath::kClampMin:
      return tmp ? AscendC::ClampMin<T, Reuse>(D, S, *tmp, s, n, loc) : AscendC::ClampMin<T, Reuse>(D, S, s, n, loc);
    case AdvMath::kPowScalar:
      return tmp ? AscendC::Power<T, Reuse>(D, S, s, *tmp, n, loc) : AscendC::Power<T, Reuse>(D, S, s, n, loc);
    case AdvMath::kScalarPow:
      return tmp ? AscendC::Power<T, Reuse>(D, s, S, *tmp, n, loc) : AscendC::Power<T, Reuse>(D, s, S, n, loc);
    default:
      break;
  }
  Refuse("a high-level math API", "operation code " + std::to_string(static_cast<int32_t>(op)) + " unknown");
}

// Every function of adv_math takes isReuseSource (the element-wise family, Exp, Swish, the clamps,
// Power's scalar forms): a source lent to the library is left as the library leaves it, whichever.
template <typename T>
void Math(AdvMath op, const AscendC::LocalTensor<T>& D, const AscendC::LocalTensor<T>& S,
          const AscendC::LocalTensor<uint8_t>* tmp, bool reuse, int64_t scalar, uint32_t n, const SrcLoc& loc) {
  if (reuse)
    MathOnce<T, true>(op, D, S, tmp, scalar, n, loc);
  else
    MathOnce<T, false>(op, D, S, tmp, scalar, n, loc);
}

// `flags`: bit 0 a sharedTmpBuffer named, bit 1 isReuseSource (ascendc_guest::kReuseSource).
void AdvMathImport(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn, uint32_t tmp,
                   uint32_t tmpn, int32_t flags, int64_t scalar, uint32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto T8 = Tmp(tmp, tmpn);
      Math<T>(static_cast<AdvMath>(op), Local<T>(d, dn), Local<T>(s, sn), flags & 1 ? &T8 : nullptr,
              (flags & ascendc_guest::kReuseSource) != 0, scalar, count, c.Loc(line));
    } else {
      Unsupported("a high-level math API", t);
    }
  });
}

void AdvPower(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t b, uint32_t bn,
              uint32_t tmp, uint32_t tmpn, int32_t hasTmp, uint32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an), B = Local<T>(b, bn);
      if (hasTmp)
        AscendC::Power(D, A, B, Tmp(tmp, tmpn), count, c.Loc(line));
      else
        AscendC::Power(D, A, B, count, c.Loc(line));
    } else {
      Unsupported("Power", t);
    }
  });
}

// SelectWithBytesMask over firstAxis rows: the native counts them in 32 bits and reads maskLastAxis
// mask values a row, past the lanes it issues: both extents are held to their buffers here.
void AdvSelectBytesMask(const Call& c, int32_t t, int32_t u, int32_t form, uint32_t d, uint32_t dn, uint32_t s,
                        uint32_t sn, int64_t scalar, uint32_t m, uint32_t mn, uint32_t tmp, uint32_t tmpn,
                        uint32_t infoPtr, int32_t line) {
  const char* api = "SelectWithBytesMask";
  const auto info = c.Read<AscendC::SelectWithBytesMaskShapeInfo>(infoPtr, api);
  WithType(t, [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    WithType(u, [&](auto utag) {
      using U = typename decltype(utag)::type;
      if constexpr (kFloating<T> && sizeof(U) <= 4) {
        const auto D = Local<T>(d, dn), S = Local<T>(s, sn);
        const auto M = Local<U>(m, mn);
        const uint64_t elems = static_cast<uint64_t>(info.firstAxis) * info.srcLastAxis;
        Reach(D, elems, api, "destination");
        Reach(S, elems, api, "source");
        Reach(M, static_cast<uint64_t>(info.firstAxis) * std::max(info.srcLastAxis, info.maskLastAxis), api, "mask");
        const T v = FromBits<T>(scalar);
        const SrcLoc loc = c.Loc(line);
        // The guest's form word (ascendc_guest/adv.h SelectForm): the tensor is src0, isReuseMask.
        ascendc_sim::SelectWithBytesMask(D, S, v, (form & 1) != 0, M, (form & 2) != 0, Tmp(tmp, tmpn), info, loc);
      } else {
        Unsupported(api, t * 16 + u);
      }
    });
  });
}

void AdvArithProgression(const Call&, int32_t t, uint32_t d, uint32_t dn, int64_t first, int64_t diff, int32_t count) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kArith<T>)
      AscendC::ArithProgression(Local<T>(d, dn), FromBits<T>(first), FromBits<T>(diff), count);
    else
      Unsupported("ArithProgression", t);
  });
}

// ---- SoftMax, LayerNorm, RmsNorm --------------------------------------------------------------

// The guest's form word (ascendc_guest/adv_abi.h SoftMaxForm): the kind and isReuseSource.
void AdvSoftMaxImport(const Call& c, int32_t form, int32_t t, int32_t u, uint32_t d, uint32_t dn, uint32_t sum,
                      uint32_t sumn, uint32_t max, uint32_t maxn, uint32_t s, uint32_t sn, uint32_t tmp, uint32_t tmpn,
                      int32_t hasTmp, uint32_t tilingPtr, uint32_t shapePtr, int32_t line) {
  const char* api = "SoftMax";
  const auto tiling = c.Read<SoftMaxTiling>(tilingPtr, api);
  const auto shape = c.Read<AscendC::SoftMaxShapeInfo>(shapePtr, api);
  // The native walks every row, empty ones too (srcK 0): rows are held to the destination's elements.
  const ascendc_sim::RowGeometry g = ascendc_sim::SoftMaxRows(tiling, shape);
  WithType(t, [&](auto ttag) {
    using T = typename decltype(ttag)::type;
    WithType(u, [&](auto utag) {
      using U = typename decltype(utag)::type;
      if constexpr (kFloating<T> && kFloating<U>) {
        const auto D = Local<T>(d, dn), S = Local<T>(s, sn);
        if (g.rows > dn) Refuse(api, std::to_string(g.rows) + " rows for a destination of " + std::to_string(dn));
        const auto T8 = Tmp(tmp, tmpn);
        const SrcLoc loc = c.Loc(line);
        const auto kindCode = static_cast<AdvSoftMax>(form & (ascendc_guest::kSoftMaxReuseSource - 1));
        const bool reuse = (form & ascendc_guest::kSoftMaxReuseSource) != 0;
        const auto* tp = hasTmp ? &T8 : nullptr;
        if (kindCode == AdvSoftMax::kNoStats) {
          if constexpr (std::is_same_v<T, U>)
            return ascendc_sim::SoftMaxImpl<T, T>("SoftMax", 3, D, nullptr, nullptr, S, tp, g, reuse, loc);
        }
        const auto Sum = Local<U>(sum, sumn), Max = Local<U>(max, maxn);
        switch (kindCode) {
          case AdvSoftMax::kSoftMax:
            return ascendc_sim::SoftMaxImpl("SoftMax", 0, D, &Sum, &Max, S, tp, g, reuse, loc);
          case AdvSoftMax::kSimple:
            return ascendc_sim::SoftMaxImpl("SimpleSoftMax", 1, D, &Sum, &Max, S, tp, g, reuse, loc);
          case AdvSoftMax::kLog:
            if (hasTmp) return ascendc_sim::SoftMaxImpl("LogSoftMax", 2, D, &Sum, &Max, S, tp, g, reuse, loc);
            break;
          default:
            break;
        }
      }
      Unsupported("a SoftMax form", t * 16 + u);
    });
  });
}

void AdvSoftmaxGrad(const Call& c, int32_t front, int32_t t, uint32_t d, uint32_t dn, uint32_t grad, uint32_t gradn,
                    uint32_t s, uint32_t sn, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, uint32_t tilingPtr,
                    uint32_t shapePtr, int32_t line) {
  const char* api = "SoftmaxGrad";
  const auto tiling = c.Read<SoftMaxTiling>(tilingPtr, api);
  const auto shape = c.Read<AscendC::SoftMaxShapeInfo>(shapePtr, api);
  // As SoftMax's: rows are held to the destination's elements, so empty rows (srcK 0) stay bounded.
  const ascendc_sim::RowGeometry g = ascendc_sim::SoftMaxRows(tiling, shape);
  if (g.rows > dn) Refuse(api, std::to_string(g.rows) + " rows for a destination of " + std::to_string(dn));
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), G = Local<T>(grad, gradn), S = Local<T>(s, sn);
      const SrcLoc loc = c.Loc(line);
      if (hasTmp) return AscendC::SoftmaxGrad<T>(D, G, S, Tmp(tmp, tmpn), tiling, front != 0, shape, loc);
      return AscendC::SoftmaxGrad<T>(D, G, S, tiling, front != 0, shape, loc);
    }
    Unsupported(api, t);
  });
}

// LayerNorm and RmsNorm normalise the first originalHLength elements of rows hLength apart.
template <typename Tiling>
void CheckRows(const Tiling& tiling, const char* api) {
  if (tiling.originalHLength > tiling.hLength)
    Refuse(api, "originalHLength " + std::to_string(tiling.originalHLength) + " > hLength " +
                    std::to_string(tiling.hLength));
}

void AdvLayerNorm(const Call& c, int32_t reuseSource, int32_t t, uint32_t out, uint32_t outn, uint32_t mean,
                  uint32_t meann, uint32_t var, uint32_t varn, uint32_t x, uint32_t xn, uint32_t gamma, uint32_t gamman,
                  uint32_t beta, uint32_t betan, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, int64_t eps,
                  uint32_t tilingPtr, int32_t line) {
  auto tiling = c.Read<LayerNormTiling>(tilingPtr, "LayerNorm");
  CheckRows(tiling, "LayerNorm");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto O = Local<T>(out, outn), M = Local<T>(mean, meann), V = Local<T>(var, varn), X = Local<T>(x, xn),
                 G = Local<T>(gamma, gamman), B = Local<T>(beta, betan);
      const SrcLoc loc = c.Loc(line);
      // isReuseSource is a template argument of the native LayerNorm, which leaves a lent source.
      auto run = [&](auto reuse) {
        constexpr bool kReuse = decltype(reuse)::value;
        if (hasTmp)
          AscendC::LayerNorm<T, kReuse>(O, M, V, X, G, B, Tmp(tmp, tmpn), FromBits<T>(eps), tiling, loc);
        else
          AscendC::LayerNorm<T, kReuse>(O, M, V, X, G, B, FromBits<T>(eps), tiling, loc);
      };
      if (reuseSource)
        run(std::true_type{});
      else
        run(std::false_type{});
    } else {
      Unsupported("LayerNorm", t);
    }
  });
}

void AdvRmsNorm(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn, uint32_t gamma,
                uint32_t gamman, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, int64_t eps, uint32_t tilingPtr,
                int32_t line) {
  const auto tiling = c.Read<RmsNormTiling>(tilingPtr, "RmsNorm");
  CheckRows(tiling, "RmsNorm");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), S = Local<T>(s, sn), G = Local<T>(gamma, gamman);
      const SrcLoc loc = c.Loc(line);
      if (hasTmp)
        AscendC::RmsNorm(D, S, G, Tmp(tmp, tmpn), FromBits<T>(eps), tiling, loc);
      else
        AscendC::RmsNorm(D, S, G, FromBits<T>(eps), tiling, loc);
    } else {
      Unsupported("RmsNorm", t);
    }
  });
}

// ---- reductions, Broadcast, CumSum ------------------------------------------------------------

void AdvSum(const Call& c, int32_t mean, int32_t t, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn, uint32_t tmp,
            uint32_t tmpn, int32_t hasTmp, uint32_t outter, uint32_t inner, uint32_t n, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), S = Local<T>(s, sn);
      const auto T8 = Tmp(tmp, tmpn);
      const SrcLoc loc = c.Loc(line);
      if (mean) {
        const AscendC::MeanParams p{outter, inner, n};
        return hasTmp ? AscendC::Mean(D, S, T8, p, loc) : AscendC::Mean(D, S, p, loc);
      }
      const AscendC::SumParams p{outter, inner, n};
      return hasTmp ? AscendC::Sum(D, S, T8, p, loc) : AscendC::Sum(D, S, p, loc);
    }
    Unsupported(mean ? "Mean" : "Sum", t);
  });
}

template <typename T, typename P, bool reuse>
void PatternReduce(AdvReduce op, const AscendC::LocalTensor<T>& D, const AscendC::LocalTensor<T>& S,
                   const AscendC::LocalTensor<uint8_t>* tmp, const uint32_t shape[], bool pad, const SrcLoc& loc) {
#define ASCENDC_GUEST_CASE(NAME, CODE)                                   \
  case AdvReduce::CODE:                                                  \
    return tmp ? AscendC::NAME<T, P, reuse>(D, S, *tmp, shape, pad, loc) \
               : AscendC::NAME<T, P, reuse>(D, S, shape, pad, loc);
  switch (op) {
    ASCENDC_GUEST_CASE(ReduceSum, kSum)
    ASCENDC_GUEST_CASE(ReduceMax, kMax)
    ASCENDC_GUEST_CASE(ReduceMin, kMin)
    ASCENDC_GUEST_CASE(ReduceProd, kProd)
    ASCENDC_GUEST_CASE(ReduceAny, kAny)
    ASCENDC_GUEST_CASE(ReduceAll, kAll)
    ASCENDC_GUEST_CASE(ReduceMean, kMean)
  }
#undef ASCENDC_GUEST_CASE
  Refuse("a pattern reduction", "operation code " + std::to_string(static_cast<int32_t>(op)) + " unknown");
}

// The guest's form word (ascendc_guest/adv.h ReduceForm): the pattern is RA, isReuseSource.
void AdvReduceImport(const Call& c, int32_t op, int32_t t, int32_t form, uint32_t d, uint32_t dn, uint32_t s,
                     uint32_t sn, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, uint32_t rows, uint32_t cols,
                     int32_t innerPad, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), S = Local<T>(s, sn);
      // The native pads the last axis in 32 bits: a length past the source would wrap.
      if (cols > sn) Refuse("a pattern reduction", "srcShape[1] " + std::to_string(cols) + " exceeds the source");
      const auto T8 = Tmp(tmp, tmpn);
      const uint32_t shape[2] = {rows, cols};
      const SrcLoc loc = c.Loc(line);
      using AscendC::Pattern::Reduce::AR;
      using AscendC::Pattern::Reduce::RA;
      const AdvReduce code = static_cast<AdvReduce>(op);
      const auto* tp = hasTmp ? &T8 : nullptr;
      switch (form & 3) {
        case 0:
          return PatternReduce<T, AR, false>(code, D, S, tp, shape, innerPad != 0, loc);
        case 1:
          return PatternReduce<T, RA, false>(code, D, S, tp, shape, innerPad != 0, loc);
        case 2:
          return PatternReduce<T, AR, true>(code, D, S, tp, shape, innerPad != 0, loc);
        default:
          return PatternReduce<T, RA, true>(code, D, S, tp, shape, innerPad != 0, loc);
      }
    } else {
      Unsupported("a pattern reduction", t);
    }
  });
}

template <typename T, int32_t dim, int32_t axis>
void BroadcastAs(const AscendC::LocalTensor<T>& D, const AscendC::LocalTensor<T>& S, const uint32_t dst[2],
                 const uint32_t src[2], const SrcLoc& loc) {
  // The native lets a broadcast run past its tensors inside the UB (as the device does) and writes
  // m * n elements, counted in 32 bits: the reach is held to the buffer here, in 64.
  const uint64_t m = dim == 2 ? dst[0] : 1, n = dst[dim - 1];
  Reach(D, m * n, "Broadcast", "destination");
  Reach(S, dim == 1 ? 1 : std::max<uint64_t>(axis == 0 ? n : m, static_cast<uint64_t>(src[0]) * src[1]), "Broadcast",
        "source");
  AscendC::Broadcast<T, dim, axis>(D, S, dst, src, loc);
}

void AdvBroadcast(const Call& c, int32_t t, int32_t dim, int32_t axis, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn,
                  uint32_t dst0, uint32_t dst1, uint32_t src0, uint32_t src1, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), S = Local<T>(s, sn);
    const uint32_t dst[2] = {dst0, dst1}, src[2] = {src0, src1};
    const SrcLoc loc = c.Loc(line);
    if (dim == 1 && axis == 0) return BroadcastAs<T, 1, 0>(D, S, dst, src, loc);
    if (dim == 1 && axis == 1) return BroadcastAs<T, 1, 1>(D, S, dst, src, loc);
    if (dim == 2 && axis == 0) return BroadcastAs<T, 2, 0>(D, S, dst, src, loc);
    if (dim == 2 && axis == 1) return BroadcastAs<T, 2, 1>(D, S, dst, src, loc);
    Refuse("Broadcast", "dim " + std::to_string(dim) + ", axis " + std::to_string(axis) + " out of range");
  });
}

// CumSumConfig is a template argument of the native CumSum: one constant per code.
template <int32_t code>
struct CumSumCfg {
  static constexpr AscendC::CumSumConfig value{(code & ascendc_guest::kCumLastAxis) != 0,
                                               (code & ascendc_guest::kCumReuseSource) != 0,
                                               (code & ascendc_guest::kCumOutputLastRow) != 0};
};
template <typename T, int32_t code>
void CumSumAs(const AscendC::LocalTensor<T>& D, const AscendC::LocalTensor<T>& L, const AscendC::LocalTensor<T>& S,
              const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::CumSumInfo& info, const SrcLoc& loc) {
  if (tmp)
    AscendC::CumSum<T, CumSumCfg<code>::value>(D, L, S, *tmp, info, loc);
  else
    AscendC::CumSum<T, CumSumCfg<code>::value>(D, L, S, info, loc);
}
template <typename T, int32_t... codes>
void CumSumAny(int32_t code, std::integer_sequence<int32_t, codes...>, const AscendC::LocalTensor<T>& D,
               const AscendC::LocalTensor<T>& L, const AscendC::LocalTensor<T>& S,
               const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::CumSumInfo& info, const SrcLoc& loc) {
  ((code == codes ? CumSumAs<T, codes>(D, L, S, tmp, info, loc) : void()), ...);
}

void AdvCumSum(const Call& c, int32_t t, int32_t config, uint32_t d, uint32_t dn, uint32_t last, uint32_t lastn,
               uint32_t s, uint32_t sn, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, uint32_t outter, uint32_t inner,
               int32_t line) {
  if (config < 0 || config > 7) Refuse("CumSum", "config code " + std::to_string(config) + " out of range");
  // The native copies the last of `outter` rows: with none, the row before the first.
  if ((config & ascendc_guest::kCumOutputLastRow) && outter == 0) Refuse("CumSum", "outputLastRow with no rows");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto T8 = Tmp(tmp, tmpn);
      CumSumAny<T>(config, std::make_integer_sequence<int32_t, 8>{}, Local<T>(d, dn), Local<T>(last, lastn),
                   Local<T>(s, sn), hasTmp ? &T8 : nullptr, AscendC::CumSumInfo{outter, inner}, c.Loc(line));
    } else {
      Unsupported("CumSum", t);
    }
  });
}

}  // namespace

void DefineAdvImports(wasmtime_linker_t* l) {
  Import<AdvMathImport>::Define(l, "adv_math");
  Import<AdvPower>::Define(l, "adv_power");
  Import<AdvSelectBytesMask>::Define(l, "adv_select_bytes_mask");
  Import<AdvArithProgression>::Define(l, "adv_arith_progression");
  Import<AdvSoftMaxImport>::Define(l, "adv_softmax");
  Import<AdvSoftmaxGrad>::Define(l, "adv_softmax_grad");
  Import<AdvLayerNorm>::Define(l, "adv_layer_norm");
  Import<AdvRmsNorm>::Define(l, "adv_rms_norm");
  Import<AdvSum>::Define(l, "adv_sum");
  Import<AdvReduceImport>::Define(l, "adv_reduce");
  Import<AdvBroadcast>::Define(l, "adv_broadcast");
  Import<AdvCumSum>::Define(l, "adv_cumsum");
}

}  // namespace ascendc_sim::guest
