// The high-level APIs (adv_api: math, SoftMax, LayerNorm, RmsNorm, Sum/Mean, the pattern
// reductions, Broadcast, CumSum, ArithProgression), each call one import the host serves with the
// native emulation's function, so it is traced and charged as on the native engine. Tiling structs
// and SoftMaxShapeInfo cross by address (adv_abi.h); the parameter structs are the native engine's
// own (ascendc_sim/adv_params.h). Included by kernel_operator.h.
#pragma once

#include "ascendc_guest/adv_abi.h"
#include "ascendc_sim/adv_params.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(adv_math)
void adv_math(AdvMath op, Dtype t, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize, uint32_t tmp,
              uint32_t tmpSize, int32_t flags, int64_t scalar, uint32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(adv_power)
void adv_power(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t b, uint32_t bSize,
               uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, uint32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(adv_softmax)
void adv_softmax(int32_t form, Dtype t, Dtype u, uint32_t d, uint32_t dSize, uint32_t sum, uint32_t sumSize,
                 uint32_t max, uint32_t maxSize, uint32_t s, uint32_t sSize, uint32_t tmp, uint32_t tmpSize,
                 int32_t hasTmp, const void* tiling, const void* shape, int32_t line);
ASCENDC_GUEST_IMPORT(adv_softmax_grad)
void adv_softmax_grad(int32_t front, Dtype t, uint32_t d, uint32_t dSize, uint32_t grad, uint32_t gradSize, uint32_t s,
                      uint32_t sSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, const void* tiling,
                      const void* shape, int32_t line);
ASCENDC_GUEST_IMPORT(adv_layer_norm)
void adv_layer_norm(int32_t reuseSource, Dtype t, uint32_t out, uint32_t outSize, uint32_t mean, uint32_t meanSize,
                    uint32_t var, uint32_t varSize, uint32_t x, uint32_t xSize, uint32_t gamma, uint32_t gammaSize,
                    uint32_t beta, uint32_t betaSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, int64_t epsilon,
                    const void* tiling, int32_t line);
ASCENDC_GUEST_IMPORT(adv_rms_norm)
void adv_rms_norm(Dtype t, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize, uint32_t gamma, uint32_t gammaSize,
                  uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, int64_t epsilon, const void* tiling, int32_t line);
ASCENDC_GUEST_IMPORT(adv_sum)
void adv_sum(int32_t mean, Dtype t, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize, uint32_t tmp,
             uint32_t tmpSize, int32_t hasTmp, uint32_t outter, uint32_t inner, uint32_t n, int32_t line);
ASCENDC_GUEST_IMPORT(adv_reduce)
void adv_reduce(AdvReduce op, Dtype t, int32_t form, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize,
                uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, uint32_t rows, uint32_t cols, int32_t innerPad,
                int32_t line);
ASCENDC_GUEST_IMPORT(adv_broadcast)
void adv_broadcast(Dtype t, int32_t dim, int32_t axis, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize,
                   uint32_t dst0, uint32_t dst1, uint32_t src0, uint32_t src1, int32_t line);
ASCENDC_GUEST_IMPORT(adv_cumsum)
void adv_cumsum(Dtype t, int32_t config, uint32_t d, uint32_t dSize, uint32_t last, uint32_t lastSize, uint32_t s,
                uint32_t sSize, uint32_t tmp, uint32_t tmpSize, int32_t hasTmp, uint32_t outter, uint32_t inner,
                int32_t line);
// SelectWithBytesMask's form word: bit 0 the tensor is src0, bit 1 isReuseMask (the library may
// gather the mask's rows into the mask itself, which the call then leaves so).
constexpr int32_t SelectForm(bool tensorIsSrc0, bool isReuseMask) {
  return (tensorIsSrc0 ? 1 : 0) | (isReuseMask ? 2 : 0);
}
ASCENDC_GUEST_IMPORT(adv_select_bytes_mask)
void adv_select_bytes_mask(Dtype t, Dtype u, int32_t form, uint32_t d, uint32_t dSize, uint32_t s, uint32_t sSize,
                           int64_t scalar, uint32_t m, uint32_t mSize, uint32_t tmp, uint32_t tmpSize, const void* info,
                           int32_t line);
ASCENDC_GUEST_IMPORT(adv_arith_progression)
void adv_arith_progression(Dtype t, uint32_t d, uint32_t dSize, int64_t first, int64_t diff, int32_t count);

// A local tensor's handle as the imports take it; `Tmp` a sharedTmpBuffer's, or none.
#define ASCENDC_GUEST_T(x) (x).UbAddr(), (x).GetSize()
#define ASCENDC_GUEST_TMP(x) (x).UbAddr(), (x).GetSize(), 1
#define ASCENDC_GUEST_NO_TMP 0u, 0u, 0
// The same in an API templated on isReuseSource, which adv_math's flags word carries in bit 1
// (ascendc_guest::kReuseSource): the host leaves a lent source as the library leaves it.
#define ASCENDC_GUEST_REUSE (isReuseSource ? ascendc_guest::kReuseSource : 0)
#define ASCENDC_GUEST_TMP_REUSE(x) (x).UbAddr(), (x).GetSize(), 1 | ASCENDC_GUEST_REUSE
#define ASCENDC_GUEST_NO_TMP_REUSE 0u, 0u, ASCENDC_GUEST_REUSE

}  // namespace ascendc_guest

namespace AscendC {

// ---- element-wise math ------------------------------------------------------------------------

#define ASCENDC_GUEST_ADV_MATH(NAME, CODE)                                                                       \
  template <typename T, bool isReuseSource = false>                                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount, ASCENDC_GUEST_LINE) { \
    ascendc_guest::adv_math(ascendc_guest::AdvMath::CODE, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),     \
                            ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP_REUSE, 0, calCount, line);                \
  }                                                                                                              \
  template <typename T, bool isReuseSource = false>                                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,   \
            const uint32_t calCount, ASCENDC_GUEST_LINE) {                                                       \
    ascendc_guest::adv_math(ascendc_guest::AdvMath::CODE, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),     \
                            ASCENDC_GUEST_T(src), ASCENDC_GUEST_TMP_REUSE(sharedTmpBuffer), 0, calCount, line);  \
  }                                                                                                              \
  template <typename T, bool isReuseSource = false, typename R> /* ascendc_guest::kThroughAddress */             \
  R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount) {                        \
    return NAME<T, isReuseSource>(dst, src, calCount, ascendc_guest::kThroughAddress);                           \
  }                                                                                                              \
  template <typename T, bool isReuseSource = false, typename R>                                                  \
  R NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,      \
         const uint32_t calCount) {                                                                              \
    return NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, calCount, ascendc_guest::kThroughAddress);          \
  }
ASCENDC_GUEST_ADV_MATH(Asin, kAsin)
ASCENDC_GUEST_ADV_MATH(Sinh, kSinh)
ASCENDC_GUEST_ADV_MATH(Cosh, kCosh)
ASCENDC_GUEST_ADV_MATH(Asinh, kAsinh)
ASCENDC_GUEST_ADV_MATH(Acosh, kAcosh)
ASCENDC_GUEST_ADV_MATH(Atanh, kAtanh)
ASCENDC_GUEST_ADV_MATH(Sigmoid, kSigmoid)
ASCENDC_GUEST_ADV_MATH(Tanh, kTanh)
ASCENDC_GUEST_ADV_MATH(Sin, kSin)
ASCENDC_GUEST_ADV_MATH(Cos, kCos)
ASCENDC_GUEST_ADV_MATH(Erf, kErf)
ASCENDC_GUEST_ADV_MATH(Atan, kAtan)
ASCENDC_GUEST_ADV_MATH(Acos, kAcos)
ASCENDC_GUEST_ADV_MATH(Tan, kTan)
ASCENDC_GUEST_ADV_MATH(Sign, kSign)
ASCENDC_GUEST_ADV_MATH(Log, kLog)
ASCENDC_GUEST_ADV_MATH(Log2, kLog2)
ASCENDC_GUEST_ADV_MATH(Log10, kLog10)
ASCENDC_GUEST_ADV_MATH(Gelu, kGelu)
ASCENDC_GUEST_ADV_MATH(FasterGelu, kFasterGelu)
ASCENDC_GUEST_ADV_MATH(Silu, kSilu)
ASCENDC_GUEST_ADV_MATH(Floor, kFloor)
ASCENDC_GUEST_ADV_MATH(Ceil, kCeil)
ASCENDC_GUEST_ADV_MATH(Round, kRound)
ASCENDC_GUEST_ADV_MATH(Trunc, kTrunc)
ASCENDC_GUEST_ADV_MATH(Frac, kFrac)
#undef ASCENDC_GUEST_ADV_MATH

// The documented forms without a count take the whole source tensor (adv_api/math): NAME(dst,
// src) for every function listed, and NAME(dst, src, sharedTmpBuffer) for those it lists with TMP.
#define ASCENDC_GUEST_ADV_WHOLE(NAME)                                                   \
  template <typename T, bool isReuseSource = false>                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, ASCENDC_GUEST_SITE) { \
    NAME<T, isReuseSource>(dst, src, src.GetSize(), site.line);                         \
  }
#define ASCENDC_GUEST_ADV_WHOLE_TMP(NAME)                                                                      \
  ASCENDC_GUEST_ADV_WHOLE(NAME)                                                                                \
  template <typename T, bool isReuseSource = false>                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, \
            ASCENDC_GUEST_SITE) {                                                                              \
    NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, src.GetSize(), site.line);                               \
  }
ASCENDC_GUEST_ADV_WHOLE(Log)
ASCENDC_GUEST_ADV_WHOLE(Log10)
ASCENDC_GUEST_ADV_WHOLE_TMP(Acos)
ASCENDC_GUEST_ADV_WHOLE_TMP(Acosh)
ASCENDC_GUEST_ADV_WHOLE_TMP(Asin)
ASCENDC_GUEST_ADV_WHOLE_TMP(Asinh)
ASCENDC_GUEST_ADV_WHOLE_TMP(Atan)
ASCENDC_GUEST_ADV_WHOLE_TMP(Atanh)
ASCENDC_GUEST_ADV_WHOLE_TMP(Cos)
ASCENDC_GUEST_ADV_WHOLE_TMP(Cosh)
ASCENDC_GUEST_ADV_WHOLE_TMP(Erf)
ASCENDC_GUEST_ADV_WHOLE_TMP(Frac)
ASCENDC_GUEST_ADV_WHOLE_TMP(Log2)
ASCENDC_GUEST_ADV_WHOLE_TMP(Sign)
ASCENDC_GUEST_ADV_WHOLE_TMP(Sin)
ASCENDC_GUEST_ADV_WHOLE_TMP(Sinh)
ASCENDC_GUEST_ADV_WHOLE_TMP(Tan)
ASCENDC_GUEST_ADV_WHOLE_TMP(Tanh)
ASCENDC_GUEST_ADV_WHOLE_TMP(Trunc)
#undef ASCENDC_GUEST_ADV_WHOLE_TMP
#undef ASCENDC_GUEST_ADV_WHOLE

// Exp<T, taylorExpandLevel>: the count form without a buffer is the basic Exp's unless the level is named.
template <typename T, uint8_t taylorExpandLevel = 0, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kExp, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src), ASCENDC_GUEST_TMP_REUSE(sharedTmpBuffer), taylorExpandLevel, calCount,
                          line);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kExp, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP_REUSE, taylorExpandLevel, calCount, line);
}

template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize, const T scalarValue,
           ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kSwish, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP_REUSE, ascendc_guest::BitsOf(scalarValue),
                          dataSize, line);
}

#define ASCENDC_GUEST_ADV_CLAMP(NAME, CODE)                                                                            \
  template <typename T, bool isReuseSource = false>                                                                    \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,         \
            const T scalar, const uint32_t calCount, ASCENDC_GUEST_LINE) {                                             \
    ascendc_guest::adv_math(ascendc_guest::AdvMath::CODE, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),           \
                            ASCENDC_GUEST_T(src), ASCENDC_GUEST_TMP_REUSE(sharedTmpBuffer),                            \
                            ascendc_guest::BitsOf(scalar), calCount, line);                                            \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false>                                                                    \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar, const uint32_t calCount,             \
            ASCENDC_GUEST_LINE) {                                                                                      \
    ascendc_guest::adv_math(ascendc_guest::AdvMath::CODE, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),           \
                            ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP_REUSE, ascendc_guest::BitsOf(scalar), calCount, \
                            line);                                                                                     \
  }
ASCENDC_GUEST_ADV_CLAMP(ClampMax, kClampMax)
ASCENDC_GUEST_ADV_CLAMP(ClampMin, kClampMin)
#undef ASCENDC_GUEST_ADV_CLAMP

// Power: tensor^tensor (its isReuseSource "not enabled currently", asc-devkit's power.h; the library
// works in its buffer), tensor^scalar, scalar^tensor.
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint32_t calCount,
           ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_power(ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src0),
                           ASCENDC_GUEST_T(src1), ASCENDC_GUEST_NO_TMP, calCount, line);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_power(ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src0),
                           ASCENDC_GUEST_T(src1), ASCENDC_GUEST_TMP(sharedTmpBuffer), calCount, line);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const T& src1Scalar, uint32_t calCount,
           ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kPowScalar, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src0), ASCENDC_GUEST_NO_TMP_REUSE, ascendc_guest::BitsOf(src1Scalar),
                          calCount, line);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kPowScalar, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src0), ASCENDC_GUEST_TMP_REUSE(sharedTmpBuffer),
                          ascendc_guest::BitsOf(src1Scalar), calCount, line);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dst, const T& src0Scalar, const LocalTensor<T>& src1, uint32_t calCount,
           ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kScalarPow, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src1), ASCENDC_GUEST_NO_TMP_REUSE, ascendc_guest::BitsOf(src0Scalar),
                          calCount, line);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dst, const T& src0Scalar, const LocalTensor<T>& src1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_math(ascendc_guest::AdvMath::kScalarPow, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst),
                          ASCENDC_GUEST_T(src1), ASCENDC_GUEST_TMP_REUSE(sharedTmpBuffer),
                          ascendc_guest::BitsOf(src0Scalar), calCount, line);
}

// SelectWithBytesMask: dst = mask == 0 ? src0 : src1, one of them a scalar; a bool mask crosses as bytes.
template <typename U>
constexpr ascendc_guest::Dtype MaskDtype() {
  if constexpr (std::is_same_v<U, bool>)
    return ascendc_guest::Dtype::kU8;
  else
    return ascendc_guest::DtypeOf<U>();
}
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
                         ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_select_bytes_mask(ascendc_guest::DtypeOf<T>(), MaskDtype<U>(),
                                       ascendc_guest::SelectForm(true, isReuseMask), ASCENDC_GUEST_T(dst),
                                       ASCENDC_GUEST_T(src0), ascendc_guest::BitsOf(src1), ASCENDC_GUEST_T(mask),
                                       ASCENDC_GUEST_T(sharedTmpBuffer), &info, line);
}
template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
                         ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_select_bytes_mask(ascendc_guest::DtypeOf<T>(), MaskDtype<U>(),
                                       ascendc_guest::SelectForm(false, isReuseMask), ASCENDC_GUEST_T(dst),
                                       ASCENDC_GUEST_T(src1), ascendc_guest::BitsOf(src0), ASCENDC_GUEST_T(mask),
                                       ASCENDC_GUEST_T(sharedTmpBuffer), &info, line);
}

// ---- index --------------------------------------------------------------------------------------

template <typename T>
void ArithProgression(const LocalTensor<T>& dst, const T first, const T diff, const int32_t count) {
  ascendc_guest::adv_arith_progression(ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ascendc_guest::BitsOf(first),
                                       ascendc_guest::BitsOf(diff), count);
}

// ---- SoftMax, LayerNorm, RmsNorm --------------------------------------------------------------

// The import's arguments after dst: sum, max, src and the buffer, as handles.
#define ASCENDC_GUEST_SOFTMAX(KIND, T, U, ...)                                                               \
  ascendc_guest::adv_softmax(ascendc_guest::SoftMaxForm(ascendc_guest::AdvSoftMax::KIND, isReuseSource),     \
                             ascendc_guest::DtypeOf<T>(), ascendc_guest::DtypeOf<U>(), ASCENDC_GUEST_T(dst), \
                             __VA_ARGS__, &tiling, &shapeInfo, line)
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor,
             const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kSoftMax, T, U, ASCENDC_GUEST_T(sumTensor), ASCENDC_GUEST_T(maxTensor), ASCENDC_GUEST_T(src),
                        ASCENDC_GUEST_TMP(sharedTmpBuffer));
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor,
             const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {},
             ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kSoftMax, T, U, ASCENDC_GUEST_T(sumTensor), ASCENDC_GUEST_T(maxTensor), ASCENDC_GUEST_T(src),
                        ASCENDC_GUEST_NO_TMP);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kNoStats, T, T, 0u, 0u, 0u, 0u, ASCENDC_GUEST_T(src), ASCENDC_GUEST_TMP(sharedTmpBuffer));
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kNoStats, T, T, 0u, 0u, 0u, 0u, ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& inSumTensor, const LocalTensor<U>& inMaxTensor,
                   const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kSimple, T, U, ASCENDC_GUEST_T(inSumTensor), ASCENDC_GUEST_T(inMaxTensor), ASCENDC_GUEST_T(src),
                        ASCENDC_GUEST_TMP(sharedTmpBuffer));
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& inSumTensor, const LocalTensor<U>& inMaxTensor,
                   const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {},
                   ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kSimple, T, U, ASCENDC_GUEST_T(inSumTensor), ASCENDC_GUEST_T(inMaxTensor), ASCENDC_GUEST_T(src),
                        ASCENDC_GUEST_NO_TMP);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename U = T>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sumTensor, const LocalTensor<U>& maxTensor,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_GUEST_LINE) {
  ASCENDC_GUEST_SOFTMAX(kLog, T, U, ASCENDC_GUEST_T(sumTensor), ASCENDC_GUEST_T(maxTensor), ASCENDC_GUEST_T(src),
                        ASCENDC_GUEST_TMP(sharedTmpBuffer));
}
#undef ASCENDC_GUEST_SOFTMAX

// SoftmaxGrad and SoftmaxGradFront: the ND layout (an NZ one is not emulated).
#define ASCENDC_GUEST_SOFTMAX_GRAD(FRONT, TMP)                                                           \
  ascendc_guest::adv_softmax_grad(FRONT, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dstTensor),        \
                                  ASCENDC_GUEST_T(gradTensor), ASCENDC_GUEST_T(srcTensor), TMP, &tiling, \
                                  &softmaxShapeInfo, line)
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_GUEST_LINE) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the simulator emulates the ND layout");
  ASCENDC_GUEST_SOFTMAX_GRAD(isFront, ASCENDC_GUEST_TMP(sharedTmpBuffer));
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                 ASCENDC_GUEST_LINE) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the simulator emulates the ND layout");
  ASCENDC_GUEST_SOFTMAX_GRAD(isFront, ASCENDC_GUEST_NO_TMP);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_GUEST_LINE) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the simulator emulates the ND layout");
  ASCENDC_GUEST_SOFTMAX_GRAD(true, ASCENDC_GUEST_TMP(sharedTmpBuffer));
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_GUEST_LINE) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the simulator emulates the ND layout");
  ASCENDC_GUEST_SOFTMAX_GRAD(true, ASCENDC_GUEST_NO_TMP);
}
#undef ASCENDC_GUEST_SOFTMAX_GRAD

template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling,
               ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_layer_norm(isReuseSource, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(output),
                                ASCENDC_GUEST_T(outputMean), ASCENDC_GUEST_T(outputVariance), ASCENDC_GUEST_T(inputX),
                                ASCENDC_GUEST_T(gamma), ASCENDC_GUEST_T(beta), ASCENDC_GUEST_TMP(sharedTmpBuffer),
                                ascendc_guest::BitsOf(epsilon), &tiling, line);
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_layer_norm(isReuseSource, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(output),
                                ASCENDC_GUEST_T(outputMean), ASCENDC_GUEST_T(outputVariance), ASCENDC_GUEST_T(inputX),
                                ASCENDC_GUEST_T(gamma), ASCENDC_GUEST_T(beta), ASCENDC_GUEST_NO_TMP,
                                ascendc_guest::BitsOf(epsilon), &tiling, line);
}

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
             ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_rms_norm(ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                              ASCENDC_GUEST_T(gamma), ASCENDC_GUEST_TMP(sharedTmpBuffer),
                              ascendc_guest::BitsOf(epsilon), &tiling, line);
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma, const T epsilon,
             const RmsNormTiling& tiling, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_rms_norm(ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                              ASCENDC_GUEST_T(gamma), ASCENDC_GUEST_NO_TMP, ascendc_guest::BitsOf(epsilon), &tiling,
                              line);
}

// ---- reductions, Broadcast, CumSum ------------------------------------------------------------

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const SumParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_sum(0, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                         ASCENDC_GUEST_TMP(sharedTmpBuffer), p.outter, p.inner, p.n, line);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SumParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_sum(0, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                         ASCENDC_GUEST_NO_TMP, p.outter, p.inner, p.n, line);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const MeanParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_sum(1, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                         ASCENDC_GUEST_TMP(sharedTmpBuffer), p.outter, p.inner, p.n, line);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MeanParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_sum(1, ascendc_guest::DtypeOf<T>(), ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                         ASCENDC_GUEST_NO_TMP, p.outter, p.inner, p.n, line);
}

// ReduceSum<T, Pattern::Reduce::AR>(dst, src, [tmp,] srcShape, srcInnerPad): srcShape = {first, last}.
#define ASCENDC_GUEST_PATTERN_REDUCE(NAME, CODE)                                                                      \
  template <typename T, typename pattern, bool isReuseSource = false>                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,        \
            const uint32_t srcShape[], bool srcInnerPad, ASCENDC_GUEST_LINE) {                                        \
    ascendc_guest::adv_reduce(ascendc_guest::AdvReduce::CODE, ascendc_guest::DtypeOf<T>(),                            \
                              ascendc_guest::ReduceForm(std::is_same_v<pattern, Pattern::Reduce::RA>, isReuseSource), \
                              ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src), ASCENDC_GUEST_TMP(sharedTmpBuffer),         \
                              srcShape[0], srcShape[1], srcInnerPad, line);                                           \
  }                                                                                                                   \
  template <typename T, typename pattern, bool isReuseSource = false>                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[], bool srcInnerPad,        \
            ASCENDC_GUEST_LINE) {                                                                                     \
    ascendc_guest::adv_reduce(ascendc_guest::AdvReduce::CODE, ascendc_guest::DtypeOf<T>(),                            \
                              ascendc_guest::ReduceForm(std::is_same_v<pattern, Pattern::Reduce::RA>, isReuseSource), \
                              ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP, srcShape[0],          \
                              srcShape[1], srcInnerPad, line);                                                        \
  }
ASCENDC_GUEST_PATTERN_REDUCE(ReduceSum, kSum)
ASCENDC_GUEST_PATTERN_REDUCE(ReduceMax, kMax)
ASCENDC_GUEST_PATTERN_REDUCE(ReduceMin, kMin)
ASCENDC_GUEST_PATTERN_REDUCE(ReduceProd, kProd)
ASCENDC_GUEST_PATTERN_REDUCE(ReduceAny, kAny)
ASCENDC_GUEST_PATTERN_REDUCE(ReduceAll, kAll)
ASCENDC_GUEST_PATTERN_REDUCE(ReduceMean, kMean)
#undef ASCENDC_GUEST_PATTERN_REDUCE

// Broadcast<T, dim, axis>: dim 1 ([1] -> [n]) or 2 (axis 0: [1, n] -> [m, n]; axis 1: [m, 1] -> [m, n]).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], ASCENDC_GUEST_LINE) {
  static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2");
  static_assert(axis == 0 || axis == 1, "Broadcast axis is 0 or 1");
  ascendc_guest::adv_broadcast(ascendc_guest::DtypeOf<T>(), dim, axis, ASCENDC_GUEST_T(dst), ASCENDC_GUEST_T(src),
                               dstShape[0], dim == 2 ? dstShape[1] : 0, srcShape[0], dim == 2 ? srcShape[1] : 0, line);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer, ASCENDC_GUEST_LINE) {
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, line);
}
// BroadCast: the spelling of earlier CANN releases.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], ASCENDC_GUEST_LINE) {
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, line);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer, ASCENDC_GUEST_LINE) {
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, line);
}

template <const CumSumConfig& config>
constexpr int32_t CumSumCode() {
  return (config.isLastAxis ? ascendc_guest::kCumLastAxis : 0) |
         (config.isReuseSource ? ascendc_guest::kCumReuseSource : 0) |
         (config.outputLastRow ? ascendc_guest::kCumOutputLastRow : 0);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& info, ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_cumsum(ascendc_guest::DtypeOf<T>(), CumSumCode<config>(), ASCENDC_GUEST_T(dst),
                            ASCENDC_GUEST_T(lastRow), ASCENDC_GUEST_T(src), ASCENDC_GUEST_TMP(sharedTmpBuffer),
                            info.outter, info.inner, line);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src, const CumSumInfo& info,
            ASCENDC_GUEST_LINE) {
  ascendc_guest::adv_cumsum(ascendc_guest::DtypeOf<T>(), CumSumCode<config>(), ASCENDC_GUEST_T(dst),
                            ASCENDC_GUEST_T(lastRow), ASCENDC_GUEST_T(src), ASCENDC_GUEST_NO_TMP, info.outter,
                            info.inner, line);
}

}  // namespace AscendC

#undef ASCENDC_GUEST_T
#undef ASCENDC_GUEST_TMP
#undef ASCENDC_GUEST_NO_TMP
