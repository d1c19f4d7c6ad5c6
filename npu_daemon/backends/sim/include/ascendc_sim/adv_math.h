// High-level element-wise math APIs (docs/ascendc.md API 7): Sigmoid, Tanh, Sin, Cos, Erf, Sign, Log,
// Log2, Log10, Atan, Tan, Exp<T, taylorLevel>, Power, Gelu, FasterGelu, Silu, Swish, Floor, Ceil,
// Round, Trunc, ClampMax and ClampMin (ArithProgression: adv_index.h).
//
// Each is evaluated in float and rounded once to T. The real library expands them into several
// basic vector instructions; the trace records that many instructions (`steps`) over the same
// operands, so the performance model sees a comparable cost. The optional sharedTmpBuffer is
// recorded as scratch the call writes.
#pragma once

#include "ascendc_sim/adv_params.h"
#include "ascendc_sim/adv_steps.h"
#include "ascendc_sim/math_tmp_sizes.h"
#include "ascendc_sim/vec_elementwise.h"

namespace ascendc_sim {

// The part of a call's sharedTmpBuffer the library writes: up to the maximum its host helper gives
// for the call (math_tmp_sizes.h), the whole buffer where the tree models none. A buffer under the
// helper's minimum stops the kernel (CheckTmpMin): the device's library works past it.
// (Power's helper sizes integers apart, which the name-keyed range does not know: its minimum is
// taken from the integer sizes for an integer type.)
inline UbAccess MathScratch(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t elems,
                            uint32_t typeSize, bool reuse, bool integral, const SrcLoc& loc) {
  const std::optional<TmpRange> range = MathTmpRange(api, elems, typeSize, reuse);
  if (range && tmp != nullptr) {
    const bool intPower = integral && std::strcmp(api, "Power") == 0;
    const uint32_t least = intPower ? PowerTmpRange(elems, false, true, typeSize).minValue : range->minValue;
    if (tmp->GetSize() < least) CheckTmpMin(api, tmp, least, ("Get" + std::string(api) + "MaxMinTmpSize").c_str(), loc);
  }
  return Scratch(tmp, range ? range->maxValue : UINT32_MAX);
}

template <typename T, typename Fn>
void AdvUnary(const char* api, int steps, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<uint8_t>* tmp, bool reuse, uint32_t count, Fn fn, const SrcLoc& loc) {
  const Lanes l = CountLanes<T>(count);
  // Every step holds the buffer, the last one too: a one-step call (ClampMax, Floor, Exp of level
  // 0) left it unwritten.
  const UbAccess scratch = MathScratch(api, tmp, count, sizeof(T), reuse, std::is_integral_v<T>, loc);
  for (int s = 1; s < steps; ++s)
    IssueVector(
        Op::kVecTransc, api, l,
        {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true}, {src.UbAddr(), src.GetSize(), sizeof(T), {}, false}},
        sizeof(T), loc, {scratch});
  Unary(Op::kVecTransc, api, dst, src, l, {}, {}, [&](T x) { return static_cast<T>(fn(static_cast<float>(x))); }, loc,
        {scratch});
}

// Power of two tensors: its buffer up to GetPowerMaxMinTmpSize's maximum for two tensors.
template <typename T, typename Fn>
void AdvBinary(const char* api, int steps, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
               const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, Fn fn,
               const SrcLoc& loc) {
  const Lanes l = CountLanes<T>(count);
  CheckTmpMin(api, tmp, PowerTmpRange(count, true, std::is_integral_v<T>, sizeof(T)).minValue, "GetPowerMaxMinTmpSize",
              loc);
  const UbAccess scratch = Scratch(tmp, PowerTmpRange(count, true, false, sizeof(T)).maxValue);
  for (int s = 1; s < steps; ++s)
    IssueVector(Op::kVecTransc, api, l,
                {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true},
                 {a.UbAddr(), a.GetSize(), sizeof(T), {}, false},
                 {b.UbAddr(), b.GetSize(), sizeof(T), {}, false}},
                sizeof(T), loc, {scratch});
  Binary(
      Op::kVecTransc, api, dst, a, b, l, {}, {}, {},
      [&](T x, T y) { return static_cast<T>(fn(static_cast<float>(x), static_cast<float>(y))); }, loc);
}

namespace math {
inline float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
inline float Sign(float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f; }
// The tanh form of GELU the library implements: x * sigmoid(1.5957691 * (x + 0.044715 x^3)).
inline float Gelu(float x) { return x * Sigmoid(1.5957691216057308f * (x + 0.044715f * x * x * x)); }
inline float FasterGelu(float x) {
  return x / (1.0f + std::exp(-1.702f * std::fabs(x))) * std::exp(0.851f * (x - std::fabs(x)));
}
}  // namespace math

// A source lent with isReuseSource (adv_steps.h), for every function here that takes the flag
// (Power of two tensors, whose flag asc-devkit's power.h calls "not enabled currently", aside).
template <bool isReuseSource, typename T>
void LeaveSourceReused(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count) {
  LeaveSourceLent(isReuseSource, dst, src, count);
}

}  // namespace ascendc_sim

// NAME(dst, src, count) and NAME(dst, src, sharedTmpBuffer, count), templated <T, isReuseSource>.
#define ASCENDC_SIM_ADV_UNARY(NAME, STEPS, EXPR)                                                                       \
  namespace AscendC {                                                                                                  \
  template <typename T, bool isReuseSource = false>                                                                    \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount,           \
                              ASCENDC_SIM_LOC) {                                                                       \
    ascendc_sim::AdvUnary(                                                                                             \
        #NAME, STEPS, dst, src, nullptr, isReuseSource, calCount, [](float x) { return EXPR; }, loc);                  \
    ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);                                                 \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false>                                                                    \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                    \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, ASCENDC_SIM_LOC) { \
    ascendc_sim::AdvUnary(                                                                                             \
        #NAME, STEPS, dst, src, &sharedTmpBuffer, isReuseSource, calCount, [](float x) { return EXPR; }, loc);         \
    ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);                                                 \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false, typename R> /* SrcLoc::ThroughAddress */                           \
  __aicore__ inline R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount) {            \
    return NAME<T, isReuseSource>(dst, src, calCount, ascendc_sim::SrcLoc::ThroughAddress());                          \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false, typename R>                                                        \
  __aicore__ inline R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                       \
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                     \
    return NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, calCount, ascendc_sim::SrcLoc::ThroughAddress());         \
  }                                                                                                                    \
  }

// The hyperbolic functions and their inverses, and Asin, of adv_api/math; step counts as the
// functions of like cost below (Atan for the inverse ones).
ASCENDC_SIM_ADV_UNARY(Asin, 12, std::asin(x))
ASCENDC_SIM_ADV_UNARY(Sinh, 6, std::sinh(x))
ASCENDC_SIM_ADV_UNARY(Cosh, 6, std::cosh(x))
ASCENDC_SIM_ADV_UNARY(Asinh, 8, std::asinh(x))
ASCENDC_SIM_ADV_UNARY(Acosh, 8, std::acosh(x))
ASCENDC_SIM_ADV_UNARY(Atanh, 8, std::atanh(x))
ASCENDC_SIM_ADV_UNARY(Sigmoid, 4, ascendc_sim::math::Sigmoid(x))
ASCENDC_SIM_ADV_UNARY(Tanh, 5, std::tanh(x))
ASCENDC_SIM_ADV_UNARY(Sin, 8, std::sin(x))
ASCENDC_SIM_ADV_UNARY(Cos, 8, std::cos(x))
ASCENDC_SIM_ADV_UNARY(Erf, 8, std::erf(x))
ASCENDC_SIM_ADV_UNARY(Atan, 12, std::atan(x))
ASCENDC_SIM_ADV_UNARY(Acos, 14, std::acos(x))  // pi/2 - Asin: Asin's polynomial and a subtraction
ASCENDC_SIM_ADV_UNARY(Tan, 12, std::tan(x))
ASCENDC_SIM_ADV_UNARY(Sign, 3, ascendc_sim::math::Sign(x))
ASCENDC_SIM_ADV_UNARY(Log, 1, std::log(x))
ASCENDC_SIM_ADV_UNARY(Log2, 2, std::log2(x))
ASCENDC_SIM_ADV_UNARY(Log10, 2, std::log10(x))
ASCENDC_SIM_ADV_UNARY(Gelu, 6, ascendc_sim::math::Gelu(x))
ASCENDC_SIM_ADV_UNARY(FasterGelu, 5, ascendc_sim::math::FasterGelu(x))
ASCENDC_SIM_ADV_UNARY(Silu, 4, x* ascendc_sim::math::Sigmoid(x))
ASCENDC_SIM_ADV_UNARY(Floor, 1, std::floor(x))
ASCENDC_SIM_ADV_UNARY(Ceil, 1, std::ceil(x))
ASCENDC_SIM_ADV_UNARY(Round, 1, std::nearbyint(x))  // half to even
ASCENDC_SIM_ADV_UNARY(Trunc, 2, std::trunc(x))
ASCENDC_SIM_ADV_UNARY(Frac, 3, x - std::trunc(x))  // Trunc and a subtraction; the sign of x kept
#undef ASCENDC_SIM_ADV_UNARY

// The documented forms without a count take the whole source tensor (adv_api/math): NAME(dst,
// src) for every function listed, and NAME(dst, src, sharedTmpBuffer) for those it lists with TMP.
#define ASCENDC_SIM_ADV_WHOLE(NAME)                                                                    \
  namespace AscendC {                                                                                  \
  template <typename T, bool isReuseSource = false>                                                    \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, ASCENDC_SIM_LOC) { \
    NAME<T, isReuseSource>(dst, src, src.GetSize(), loc);                                              \
  }                                                                                                    \
  }
#define ASCENDC_SIM_ADV_WHOLE_TMP(NAME)                                                       \
  ASCENDC_SIM_ADV_WHOLE(NAME)                                                                 \
  namespace AscendC {                                                                         \
  template <typename T, bool isReuseSource = false>                                           \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,           \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, ASCENDC_SIM_LOC) { \
    NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, src.GetSize(), loc);                    \
  }                                                                                           \
  }
ASCENDC_SIM_ADV_WHOLE(Log)
ASCENDC_SIM_ADV_WHOLE(Log10)
ASCENDC_SIM_ADV_WHOLE_TMP(Acos)
ASCENDC_SIM_ADV_WHOLE_TMP(Acosh)
ASCENDC_SIM_ADV_WHOLE_TMP(Asin)
ASCENDC_SIM_ADV_WHOLE_TMP(Asinh)
ASCENDC_SIM_ADV_WHOLE_TMP(Atan)
ASCENDC_SIM_ADV_WHOLE_TMP(Atanh)
ASCENDC_SIM_ADV_WHOLE_TMP(Cos)
ASCENDC_SIM_ADV_WHOLE_TMP(Cosh)
ASCENDC_SIM_ADV_WHOLE_TMP(Erf)
ASCENDC_SIM_ADV_WHOLE_TMP(Frac)
ASCENDC_SIM_ADV_WHOLE_TMP(Log2)
ASCENDC_SIM_ADV_WHOLE_TMP(Sign)
ASCENDC_SIM_ADV_WHOLE_TMP(Sin)
ASCENDC_SIM_ADV_WHOLE_TMP(Sinh)
ASCENDC_SIM_ADV_WHOLE_TMP(Tan)
ASCENDC_SIM_ADV_WHOLE_TMP(Tanh)
ASCENDC_SIM_ADV_WHOLE_TMP(Trunc)
#undef ASCENDC_SIM_ADV_WHOLE_TMP
#undef ASCENDC_SIM_ADV_WHOLE

namespace AscendC {

// Exp<T, taylorExpandLevel>: the level trades accuracy for speed on hardware; here it only sets the
// recorded instruction count (the value is exp(x) rounded once).
template <typename T, uint8_t taylorExpandLevel = 0, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, ASCENDC_SIM_LOC) {
  ascendc_sim::AdvUnary(
      "Exp", 1 + taylorExpandLevel, dst, src, &sharedTmpBuffer, isReuseSource, calCount,
      [](float x) { return std::exp(x); }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount,
                           ASCENDC_SIM_LOC) {
  ascendc_sim::AdvUnary(
      "Exp", 1 + taylorExpandLevel, dst, src, nullptr, isReuseSource, calCount, [](float x) { return std::exp(x); },
      loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);
}

// Swish(x) = x * sigmoid(beta * x).
template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize,
                             const T scalarValue, ASCENDC_SIM_LOC) {
  const float beta = static_cast<float>(scalarValue);
  ascendc_sim::AdvUnary(
      "Swish", 4, dst, src, nullptr, isReuseSource, dataSize,
      [beta](float x) { return x * ascendc_sim::math::Sigmoid(beta * x); }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, dataSize);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,
                                ASCENDC_SIM_LOC) {
  const float s = static_cast<float>(scalar);
  ascendc_sim::AdvUnary(
      "ClampMax", 1, dst, src, &sharedTmpBuffer, isReuseSource, calCount, [s](float x) { return x > s ? s : x; }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar,
                                const uint32_t calCount, ASCENDC_SIM_LOC) {
  const float s = static_cast<float>(scalar);
  ascendc_sim::AdvUnary(
      "ClampMax", 1, dst, src, nullptr, isReuseSource, calCount, [s](float x) { return x > s ? s : x; }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,
                                ASCENDC_SIM_LOC) {
  const float s = static_cast<float>(scalar);
  ascendc_sim::AdvUnary(
      "ClampMin", 1, dst, src, &sharedTmpBuffer, isReuseSource, calCount, [s](float x) { return x < s ? s : x; }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar,
                                const uint32_t calCount, ASCENDC_SIM_LOC) {
  const float s = static_cast<float>(scalar);
  ascendc_sim::AdvUnary(
      "ClampMin", 1, dst, src, nullptr, isReuseSource, calCount, [s](float x) { return x < s ? s : x; }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src, calCount);
}

// Power: tensor^tensor, tensor^scalar, scalar^tensor (each with an optional sharedTmpBuffer).
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                             uint32_t calCount, ASCENDC_SIM_LOC) {
  ascendc_sim::AdvBinary(
      "Power", 6, dst, src0, src1, nullptr, calCount, [](float a, float b) { return std::pow(a, b); }, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCENDC_SIM_LOC) {
  ascendc_sim::AdvBinary(
      "Power", 6, dst, src0, src1, &sharedTmpBuffer, calCount, [](float a, float b) { return std::pow(a, b); }, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const T& src1Scalar,
                             uint32_t calCount, ASCENDC_SIM_LOC) {
  const float e = static_cast<float>(src1Scalar);
  ascendc_sim::AdvUnary(
      "Power", 6, dst, src0, nullptr, isReuseSource, calCount, [e](float a) { return std::pow(a, e); }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src0, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCENDC_SIM_LOC) {
  const float e = static_cast<float>(src1Scalar);
  ascendc_sim::AdvUnary(
      "Power", 6, dst, src0, &sharedTmpBuffer, isReuseSource, calCount, [e](float a) { return std::pow(a, e); }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src0, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const T& src0Scalar, const LocalTensor<T>& src1,
                             uint32_t calCount, ASCENDC_SIM_LOC) {
  const float b = static_cast<float>(src0Scalar);
  ascendc_sim::AdvUnary(
      "Power", 6, dst, src1, nullptr, isReuseSource, calCount, [b](float e) { return std::pow(b, e); }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src1, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dst, const T& src0Scalar, const LocalTensor<T>& src1,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCENDC_SIM_LOC) {
  const float b = static_cast<float>(src0Scalar);
  ascendc_sim::AdvUnary(
      "Power", 6, dst, src1, &sharedTmpBuffer, isReuseSource, calCount, [b](float e) { return std::pow(b, e); }, loc);
  ascendc_sim::LeaveSourceReused<isReuseSource>(dst, src1, calCount);
}

}  // namespace AscendC

// ---- SelectWithBytesMask: dst = mask == 0 ? src0 : src1, one of them a scalar ------------------
// The mask is one byte-or-wider value per element (bool, uint8, ...), rows of maskLastAxis elements
// of which the first srcLastAxis apply. The library runs it as GatherMask (when the axes differ),
// Cast, Compare and Select on the vector unit: recorded as that many instructions.
namespace ascendc_sim {
template <typename T, typename U>
void SelectWithBytesMask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& tensor, T scalar,
                         bool tensorIsSrc0, const AscendC::LocalTensor<U>& mask, bool reuseMask,
                         const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SelectWithBytesMaskShapeInfo& info,
                         const SrcLoc& loc) {
  const char* api = "SelectWithBytesMask";
  ASCENDC_SIM_CHECK(
      info.srcLastAxis * sizeof(T) % 32 == 0 && info.maskLastAxis * sizeof(U) % 32 == 0 &&
          info.maskLastAxis % 16 == 0 && info.maskLastAxis >= info.srcLastAxis,
      loc,
      "%s: srcLastAxis %u and maskLastAxis %u must be 32 B aligned, maskLastAxis a multiple of 16 and >= srcLastAxis",
      api, info.srcLastAxis, info.maskLastAxis);
  const uint32_t count = info.firstAxis * info.srcLastAxis;
  const Lanes l = CountLanes<T>(count);
  const bool maskWider = info.maskLastAxis != info.srcLastAxis;
  const int steps = maskWider ? 4 : 3;
  // Rows wider than the source's are first gathered to the source's width (asc-devkit's A2
  // SelectWithBytesMaskImpl, RemoveRedundantMask): with isReuseMask into the mask itself, which the
  // call leaves so, else into the buffer, which then needs room for that copy. The library asserts
  // 1 KiB and that copy at the least (its minimum); it writes up to GetSelectWithBytesMaskMaxTmpSize's
  // maximum for the flag, and the kernel's past it is its own.
  const bool gatherInMask = maskWider && reuseMask;
  const uint32_t maskCopy = maskWider && !reuseMask ? static_cast<uint32_t>((count * sizeof(U) + 31) / 32 * 32) : 0;
  CheckTmpMin(api, &tmp, 1024 + maskCopy, "SelectWithBytesMask's library", loc);
  const UbAccess scratch = Scratch(&tmp, SelectWithBytesMaskMaxTmpBytes(count, sizeof(U), maskCopy != 0));
  const UbAccess gathered{mask.UbAddr(), static_cast<uint32_t>(count * sizeof(U)), true};
  for (int s = 0; s < steps; ++s)
    IssueVector(Op::kVecSelect, api, l,
                {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true},
                 {tensor.UbAddr(), tensor.GetSize(), sizeof(T), {}, false},
                 {mask.UbAddr(), mask.GetSize(), sizeof(U), {}, false}},
                sizeof(T), loc, {scratch, s == 0 && gatherInMask ? gathered : UbAccess{0, 0, false}});
  T* out = ascendc_sim::HostData(dst);
  const T* in = ascendc_sim::HostData(tensor);
  const U* m = ascendc_sim::HostData(mask);
  for (uint32_t r = 0; r < info.firstAxis; ++r)
    for (uint32_t c = 0; c < info.srcLastAxis; ++c) {
      const uint32_t i = r * info.srcLastAxis + c;
      const bool one = m[r * info.maskLastAxis + c] != U(0);
      out[i] = one == tensorIsSrc0 ? scalar : in[i];
    }
  // The mask as the gather leaves it: row r's first srcLastAxis values at r x srcLastAxis, the rest
  // as they were (forward order: no row is overwritten before it is read).
  if (gatherInMask) {
    U* g = ascendc_sim::HostData(mask);
    for (uint32_t r = 1; r < info.firstAxis; ++r)
      std::memmove(g + static_cast<uint64_t>(r) * info.srcLastAxis, g + static_cast<uint64_t>(r) * info.maskLastAxis,
                   info.srcLastAxis * sizeof(U));
  }
}
}  // namespace ascendc_sim

namespace AscendC {
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                                           const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo& info, ASCENDC_SIM_LOC) {
  ascendc_sim::SelectWithBytesMask(dst, src0, src1, true, mask, isReuseMask, sharedTmpBuffer, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                                           const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo& info, ASCENDC_SIM_LOC) {
  ascendc_sim::SelectWithBytesMask(dst, src1, src0, false, mask, isReuseMask, sharedTmpBuffer, info, loc);
}
}  // namespace AscendC
