// Quantisation of the high-level API on the A2 (asc-devkit adv_api/quantization/ascend_quant.h,
// ascend_antiquant.h, ascend_dequant.h): AscendQuant to int8_t, AscendAntiQuant from int8_t and
// AscendDequant from int32_t (its semantics and charge above AscendDequantImpl).
//
// AscendQuant, per element (PER_TENSOR: one scale and offset; PER_CHANNEL: scale[i % scaleCount]
// and offset[i % offsetCount]): as the library computes it in half, the source, scale and offset
// are rounded to half, dst = int8(half(half(src * scale) + offset)), the last cast rounding half to
// even and saturating. Charged as its vector steps over calCount halves: the cast of a float source
// to half, Mul(s), Add(s), the cast to int8; and a cast of each float parameter tensor.
//
// AscendAntiQuant, src [K, N] (isTranspose: [N, K], K = k): dst = scale * (src + offset), the
// offset and scale one value (PER_TENSOR) or a tensor whose rows (columns with isTranspose) each
// serve a group of K / height rows (K / width columns). A half output is computed in half (the
// cast to half, Add(s), Mul(s)); a bfloat16 one in float (casts to half and to float, Add(s),
// Mul(s), the cast to bfloat16, and a cast of each parameter tensor); with isTranspose each
// parameter tensor is also broadcast across its group. Charged as those steps over the source.
#pragma once

#include "ascendc_sim/adv_quant_params.h"
#include "ascendc_sim/adv_reduce.h"
#include "ascendc_sim/adv_steps.h"
#include "ascendc_sim/math_tmp_sizes.h"

namespace ascendc_sim {

// A quantisation parameter: one value, or a tensor of them.
template <typename T>
struct QuantParam {
  const AscendC::LocalTensor<T>* tensor;
  float value;
  uint32_t count;  // AscendQuant: the tensor's values in use
};

inline int8_t SaturateInt8(float v) {
  return static_cast<int8_t>(std::min(127.0f, std::max(-128.0f, std::nearbyint(v))));
}

// A parameter tensor's values as an operand of the steps, or nothing for a scalar.
template <typename T>
UbAccess QuantRead(const QuantParam<T>* p) {
  return p && p->tensor ? Touch(*p->tensor, p->tensor->GetSize(), false) : UbAccess{0, 0, false};
}

template <typename T>
void AscendQuantImpl(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp, const QuantParam<T>& scale, const QuantParam<T>& offset,
                     uint32_t calCount, const SrcLoc& loc) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "AscendQuant: the source is half or float");
  const char* api = "AscendQuant";
  CheckElems(api, src, calCount, "source", loc);
  CheckElems(api, dst, calCount, "destination", loc);
  for (const QuantParam<T>* p : {&scale, &offset}) {
    if (!p->tensor) continue;
    ASCENDC_SIM_CHECK(p->count > 0 && calCount % p->count == 0, loc,
                      "%s: calCount %u must be a multiple of the %u channels", api, calCount, p->count);
    CheckElems(api, *p->tensor, p->count, p == &scale ? "scale tensor" : "offset tensor", loc);
  }
  ASCENDC_SIM_CHECK(!scale.tensor || !offset.tensor || scale.count == offset.count, loc,
                    "%s: offsetCount %u must equal scaleCount %u", api, offset.count, scale.count);
  const int steps = 3 + std::is_same_v<T, float>;
  // The buffer from GetAscendQuantMaxMinTmpSize's minimum (under it the library works past the
  // buffer) up to its maximum: what the kernel keeps past that is its own.
  const TmpRange range = AscendQuantTmpRange(calCount);
  CheckTmpMin(api, tmp, range.minValue, "GetAscendQuantMaxMinTmpSize", loc);
  const UbAccess scratch = Scratch(tmp, range.maxValue);
  AdvSteps(api, steps, sizeof(half), calCount,
           {Touch(src, calCount, false), QuantRead(&scale), QuantRead(&offset), scratch, Touch(dst, calCount, true)},
           loc);
  if constexpr (std::is_same_v<T, float>)
    for (const QuantParam<T>* p : {&scale, &offset})
      if (p->tensor) AdvSteps(api, 1, sizeof(float), p->count, {QuantRead(p), scratch}, loc);
  auto at = [](const QuantParam<T>& p, uint32_t i) {
    return static_cast<float>(
        static_cast<half>(p.tensor ? static_cast<float>(HostData(*p.tensor)[i % p.count]) : p.value));
  };
  const T* s = HostData(src);
  int8_t* d = HostData(dst);
  for (uint32_t i = 0; i < calCount; ++i) {
    const half x = static_cast<half>(static_cast<float>(s[i]));
    const half scaled = static_cast<half>(static_cast<float>(x) * at(scale, i));
    d[i] = SaturateInt8(static_cast<float>(static_cast<half>(static_cast<float>(scaled) + at(offset, i))));
  }
}

// The extent of an AscendAntiQuant parameter tensor: `groups` rows of N (columns of N rows with
// isTranspose), each serving K / groups of the source's K.
struct AntiGroups {
  uint32_t groups, size;
};

template <typename O>
AntiGroups AntiQuantGroups(const char* api, const QuantParam<O>& p, uint32_t given, uint32_t k, uint32_t n,
                           const char* what, const SrcLoc& loc) {
  const uint32_t groups = given ? given : (n ? p.tensor->GetSize() / n : 0);
  ASCENDC_SIM_CHECK(groups > 0 && groups <= k && k % groups == 0, loc, "%s: the %s's %u groups must divide K %u", api,
                    what, groups, k);
  CheckElems(api, *p.tensor, static_cast<uint64_t>(groups) * n, what, loc);
  return {groups, groups * n};
}

template <typename I, typename O>
void AscendAntiQuantImpl(const AscendC::LocalTensor<O>& dst, const AscendC::LocalTensor<I>& src,
                         const QuantParam<O>* offset, const QuantParam<O>& scale,
                         const AscendC::LocalTensor<uint8_t>* tmp, bool transpose, uint32_t k,
                         const AscendC::AntiQuantShapeInfo& shape, const SrcLoc& loc) {
  static_assert(std::is_same_v<I, int8_t>, "AscendAntiQuant: the simulator emulates int8_t sources");
  static_assert(std::is_same_v<O, half> || std::is_same_v<O, bfloat16_t>,
                "AscendAntiQuant: the output is half or bfloat16_t");
  const char* api = "AscendAntiQuant";
  const uint64_t total = src.GetSize();
  ASCENDC_SIM_CHECK(k > 0 && total % k == 0, loc, "%s: k %u must divide the source's %llu elements", api, k,
                    static_cast<unsigned long long>(total));
  CheckElems(api, dst, total, "destination", loc);
  const uint32_t n = static_cast<uint32_t>(total / k);
  AntiGroups og{1, 0}, sg{1, 0};
  if (offset && offset->tensor)
    og = AntiQuantGroups(api, *offset, transpose ? shape.offsetWidth : shape.offsetHeight, k, n, "offset tensor", loc);
  if (scale.tensor)
    sg = AntiQuantGroups(api, scale, transpose ? shape.scaleWidth : shape.scaleHeight, k, n, "scale tensor", loc);
  const bool bf16 = std::is_same_v<O, bfloat16_t>;
  const int tensors = (offset && offset->tensor) + (scale.tensor != nullptr);
  const int steps = (bf16 ? 4 : 2) + (offset != nullptr) + (transpose ? tensors : 0);
  // The buffer from GetAscendAntiQuantMinTmpSize's minimum up to GetAscendAntiQuantMaxTmpSize's
  // maximum (none for a half output).
  const TmpRange range = AscendAntiQuantTmpRange(total, k, scale.tensor ? sg.size : 1, transpose, !bf16);
  CheckTmpMin(api, tmp, range.minValue, "GetAscendAntiQuantMaxMinTmpSize", loc);
  const UbAccess scratch = Scratch(tmp, range.maxValue);
  AdvSteps(api, steps, bf16 ? sizeof(float) : sizeof(half), total,
           {Touch(src, total, false), QuantRead(offset), QuantRead(&scale), scratch, Touch(dst, total, true)}, loc);
  if (bf16 && tensors)
    AdvSteps(api, tensors, sizeof(float), og.size + sg.size, {QuantRead(offset), QuantRead(&scale), scratch}, loc);
  // Row r, column c of the source's [K, N] ([N, K] with isTranspose): the parameter of its group.
  auto at = [&](const QuantParam<O>& p, const AntiGroups& g, uint32_t r, uint32_t c) {
    if (!p.tensor) return p.value;
    const uint32_t gs = k / g.groups;
    const uint64_t i = transpose ? static_cast<uint64_t>(r) * g.groups + c / gs : static_cast<uint64_t>(r / gs) * n + c;
    return static_cast<float>(HostData(*p.tensor)[i]);
  };
  const uint32_t rows = transpose ? n : k, cols = transpose ? k : n;
  const int8_t* s = HostData(src);
  O* d = HostData(dst);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      const uint64_t i = static_cast<uint64_t>(r) * cols + c;
      const float x = static_cast<float>(s[i]), o = offset ? at(*offset, og, r, c) : 0.0f, sc = at(scale, sg, r, c);
      if constexpr (std::is_same_v<O, half>)
        d[i] = static_cast<half>(static_cast<float>(static_cast<half>(x + o)) * sc);
      else
        d[i] = static_cast<O>((x + o) * sc);
    }
}

// AscendDequant's destination and scale types on the A2: a scale tensor of uint64_t (its low 32
// bits a float) to half, float to float or bfloat16_t, bfloat16_t to float or bfloat16_t; a scalar
// float or bfloat16_t to float or bfloat16_t.
template <typename D, typename S, bool tensor>
constexpr bool DequantTypesValid() {
  constexpr bool f32 = std::is_same_v<S, float>, bf16 = std::is_same_v<S, bfloat16_t>;
  constexpr bool toF32 = std::is_same_v<D, float>, toBf16 = std::is_same_v<D, bfloat16_t>;
  constexpr bool u64ToHalf = std::is_same_v<S, uint64_t> && std::is_same_v<D, half>;
  return (tensor && u64ToHalf) || ((f32 || bf16) && (toF32 || toBf16));
}

// A dequantisation scale: column c's value of the tensor, or the scalar.
template <typename S>
float DequantScale(const QuantParam<S>& p, uint32_t c) {
  if (!p.tensor) return p.value;
  if constexpr (std::is_same_v<S, uint64_t>) {
    const uint32_t low = static_cast<uint32_t>(HostData(*p.tensor)[c]);
    float f;
    std::memcpy(&f, &low, sizeof(f));
    return f;
  } else {
    return static_cast<float>(HostData(*p.tensor)[c]);
  }
}

// AscendDequant on the A2: the source's m rows of n int32_t, each row's first calCount multiplied
// in float by the scale's first calCount (or the scalar) and every one of its n cast to D
// (bfloat16_t rounded to nearest even), into a row of n padded to 32 bytes. `count` elements from
// the start are computed (0: all m * n; the forms without DequantParams pass their calCount, the
// last row then partial). Charged as the library's vector steps over them: the int32_t to float
// cast, the Mul, the cast to D; and the scale's cast to float (a Duplicate for a scalar).
template <typename D, typename S>
void AscendDequantImpl(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<int32_t>& src,
                       const QuantParam<S>& scale, const AscendC::LocalTensor<uint8_t>* tmp, AscendC::DequantParams p,
                       bool singleRow, uint64_t count, const SrcLoc& loc) {
  const char* api = "AscendDequant";
  const uint32_t block = 32 / sizeof(D);
  // The buffer from GetAscendDequantMaxMinTmpSize's minimum (one row of the shape the kernel gave,
  // the scale and a repeat: under it the library works past the buffer) up to its maximum.
  const TmpRange range = AscendDequantTmpRange(p.m, p.n);
  CheckTmpMin(api, tmp, range.minValue, "GetAscendDequantMaxMinTmpSize", loc);
  const uint32_t tmpMax = range.maxValue;
  if (singleRow && p.m == 1 && p.calCount > 0 && p.calCount % block == 0 && p.n % p.calCount == 0)
    p = {p.n / p.calCount, p.calCount, p.calCount};
  ASCENDC_SIM_CHECK(p.n % 8 == 0, loc, "%s: n %u must be a whole number of 32-byte int32_t blocks", api, p.n);
  ASCENDC_SIM_CHECK(p.calCount > 0 && p.calCount <= p.n, loc, "%s: calCount %u must be in (0, n %u]", api, p.calCount,
                    p.n);
  const uint64_t total = static_cast<uint64_t>(p.m) * p.n;
  count = count ? count : total;
  ASCENDC_SIM_CHECK(count <= total, loc, "%s: calCount %llu past the source's %llu elements", api,
                    static_cast<unsigned long long>(count), static_cast<unsigned long long>(total));
  CheckElems(api, src, total, "source", loc);
  const uint32_t dstInner = (p.n + block - 1) / block * block;
  CheckElems(api, dst, static_cast<uint64_t>(p.m) * dstInner, "destination", loc);
  if (scale.tensor) CheckElems(api, *scale.tensor, p.calCount, "deqScale tensor", loc);
  const uint64_t rows = count ? (count + p.n - 1) / p.n : 0;
  AdvSteps(api, 3, sizeof(float), count,
           {Touch(src, count, false), QuantRead(&scale), Scratch(tmp, tmpMax), Touch(dst, rows * dstInner, true)}, loc);
  AdvSteps(api, 1, sizeof(float), p.calCount, {QuantRead(&scale), Scratch(tmp, tmpMax)}, loc);
  const int32_t* s = HostData(src);
  D* d = HostData(dst);
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t c = static_cast<uint32_t>(i % p.n);
    float v = static_cast<float>(s[i]);
    if (c < p.calCount) v *= DequantScale(scale, c);
    d[i / p.n * dstInner + c] = static_cast<D>(v);
  }
}

// The forms without DequantParams: {source / scale, scale, scale} elements, `count` of them computed.
template <typename D, typename S>
void AscendDequantCount(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<int32_t>& src,
                        const AscendC::LocalTensor<S>& scale, const AscendC::LocalTensor<uint8_t>* tmp, bool singleRow,
                        uint64_t count, const SrcLoc& loc) {
  const uint32_t n = scale.GetSize(), size = src.GetSize();
  ASCENDC_SIM_CHECK(n > 0 && size % n == 0, loc,
                    "AscendDequant: the deqScale's %u elements must divide the source's %u", n, size);
  ASCENDC_SIM_CHECK(count > 0 && count <= size, loc, "AscendDequant: calCount %llu must be in (0, %u]",
                    static_cast<unsigned long long>(count), size);
  AscendDequantImpl<D, S>(dst, src, {&scale, 0, 0}, tmp, {size / n, n, n}, singleRow, count, loc);
}

}  // namespace ascendc_sim

namespace AscendC {

// AscendQuant to int8_t: PER_TENSOR (scale and offset scalars) and PER_CHANNEL (a scale tensor with
// an offset scalar or tensor), each with a count or over the whole source, with or without a
// sharedTmpBuffer. The config's counts, where set, stand for the call's.
#define ASCENDC_SIM_QUANT_TEMPLATE \
  template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
#define ASCENDC_SIM_QUANT_COUNT(name, given) (config.name ? config.name : (given))

#define ASCENDC_SIM_QUANT_TENSOR(TMP_PARAM, TMP)                                                               \
  ASCENDC_SIM_QUANT_TEMPLATE                                                                                   \
  __aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,    \
                                     TMP_PARAM const float scale, const float offset, const uint32_t calCount, \
                                     ASCENDC_SIM_LOC) {                                                        \
    ascendc_sim::AscendQuantImpl<T>(dstTensor, srcTensor, TMP, {nullptr, scale, 0}, {nullptr, offset, 0},      \
                                    ASCENDC_SIM_QUANT_COUNT(calcCount, calCount), loc);                        \
  }                                                                                                            \
  ASCENDC_SIM_QUANT_TEMPLATE                                                                                   \
  __aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,    \
                                     TMP_PARAM const float scale, const float offset, ASCENDC_SIM_LOC) {       \
    ascendc_sim::AscendQuantImpl<T>(dstTensor, srcTensor, TMP, {nullptr, scale, 0}, {nullptr, offset, 0},      \
                                    ASCENDC_SIM_QUANT_COUNT(calcCount, srcTensor.GetSize()), loc);             \
  }
#define ASCENDC_SIM_QUANT_CHANNEL(TMP_PARAM, TMP)                                                                     \
  ASCENDC_SIM_QUANT_TEMPLATE                                                                                          \
  __aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,           \
                                     TMP_PARAM const LocalTensor<T>& scaleTensor, const T offset,                     \
                                     const uint32_t scaleCount, const uint32_t calCount, ASCENDC_SIM_LOC) {           \
    ascendc_sim::AscendQuantImpl<T>(                                                                                  \
        dstTensor, srcTensor, TMP, {&scaleTensor, 0, ASCENDC_SIM_QUANT_COUNT(scaleCount, scaleCount)},                \
        {nullptr, static_cast<float>(offset), 0}, ASCENDC_SIM_QUANT_COUNT(calcCount, calCount), loc);                 \
  }                                                                                                                   \
  ASCENDC_SIM_QUANT_TEMPLATE                                                                                          \
  __aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,           \
                                     TMP_PARAM const LocalTensor<T>& scaleTensor, const T offset, ASCENDC_SIM_LOC) {  \
    ascendc_sim::AscendQuantImpl<T>(                                                                                  \
        dstTensor, srcTensor, TMP, {&scaleTensor, 0, ASCENDC_SIM_QUANT_COUNT(scaleCount, scaleTensor.GetSize())},     \
        {nullptr, static_cast<float>(offset), 0}, ASCENDC_SIM_QUANT_COUNT(calcCount, srcTensor.GetSize()), loc);      \
  }                                                                                                                   \
  ASCENDC_SIM_QUANT_TEMPLATE                                                                                          \
  __aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,           \
                                     TMP_PARAM const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, \
                                     const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount,  \
                                     ASCENDC_SIM_LOC) {                                                               \
    ascendc_sim::AscendQuantImpl<T>(dstTensor, srcTensor, TMP,                                                        \
                                    {&scaleTensor, 0, ASCENDC_SIM_QUANT_COUNT(scaleCount, scaleCount)},               \
                                    {&offsetTensor, 0, ASCENDC_SIM_QUANT_COUNT(offsetCount, offsetCount)},            \
                                    ASCENDC_SIM_QUANT_COUNT(calcCount, calCount), loc);                               \
  }                                                                                                                   \
  ASCENDC_SIM_QUANT_TEMPLATE                                                                                          \
  __aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,           \
                                     TMP_PARAM const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, \
                                     ASCENDC_SIM_LOC) {                                                               \
    ascendc_sim::AscendQuantImpl<T>(dstTensor, srcTensor, TMP,                                                        \
                                    {&scaleTensor, 0, ASCENDC_SIM_QUANT_COUNT(scaleCount, scaleTensor.GetSize())},    \
                                    {&offsetTensor, 0, ASCENDC_SIM_QUANT_COUNT(offsetCount, offsetTensor.GetSize())}, \
                                    ASCENDC_SIM_QUANT_COUNT(calcCount, srcTensor.GetSize()), loc);                    \
  }
#define ASCENDC_SIM_TMP_PARAM const LocalTensor<uint8_t>&sharedTmpBuffer,
ASCENDC_SIM_QUANT_TENSOR(, nullptr)
ASCENDC_SIM_QUANT_TENSOR(ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
ASCENDC_SIM_QUANT_CHANNEL(, nullptr)
ASCENDC_SIM_QUANT_CHANNEL(ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_SIM_QUANT_TENSOR
#undef ASCENDC_SIM_QUANT_CHANNEL
#undef ASCENDC_SIM_QUANT_COUNT
#undef ASCENDC_SIM_QUANT_TEMPLATE

// AscendAntiQuant from int8_t to half or bfloat16_t: per-channel offset and scale tensors (or the
// scale alone), or PER_TENSOR scalars (or the scale alone), with or without a sharedTmpBuffer.
#define ASCENDC_SIM_ANTI_QUANT(TMP_PARAM, TMP)                                                                         \
  template <typename InputDataType, typename OutputDataType, bool isTranspose>                                         \
  __aicore__ inline void AscendAntiQuant(                                                                              \
      const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,                                   \
      const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale, TMP_PARAM const uint32_t k, \
      const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {                                                     \
    const ascendc_sim::QuantParam<OutputDataType> o{&offset, 0, 0};                                                    \
    ascendc_sim::AscendAntiQuantImpl<InputDataType, OutputDataType>(dst, src, &o, {&scale, 0, 0}, TMP, isTranspose, k, \
                                                                    shapeInfo, loc);                                   \
  }                                                                                                                    \
  template <typename InputDataType, typename OutputDataType, bool isTranspose>                                         \
  __aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,                                       \
                                         const LocalTensor<InputDataType>& src, const OutputDataType offset,           \
                                         const OutputDataType scale, TMP_PARAM const uint32_t k,                       \
                                         const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {                  \
    const ascendc_sim::QuantParam<OutputDataType> o{nullptr, static_cast<float>(offset), 0};                           \
    ascendc_sim::AscendAntiQuantImpl<InputDataType, OutputDataType>(                                                   \
        dst, src, &o, {nullptr, static_cast<float>(scale), 0}, TMP, isTranspose, k, shapeInfo, loc);                   \
  }
ASCENDC_SIM_ANTI_QUANT(, nullptr)
ASCENDC_SIM_ANTI_QUANT(ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_SIM_ANTI_QUANT
// The scale-only forms take a sharedTmpBuffer.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::AscendAntiQuantImpl<InputDataType, OutputDataType>(dst, src, nullptr, {&scale, 0, 0}, &sharedTmpBuffer,
                                                                  isTranspose, k, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::AscendAntiQuantImpl<InputDataType, OutputDataType>(
      dst, src, nullptr, {nullptr, static_cast<float>(scale), 0}, &sharedTmpBuffer, isTranspose, k, shapeInfo, loc);
}
#undef ASCENDC_SIM_TMP_PARAM

// AscendDequant from int32_t, the A2's forms: a deqScale tensor with DequantParams, a calCount or
// neither; a scalar deqScale with DequantParams; each with or without a sharedTmpBuffer.
#define ASCENDC_SIM_DEQUANT_TEMPLATE \
  template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
#define ASCENDC_SIM_DEQUANT_TENSOR                                    \
  static_assert(ascendc_sim::DequantTypesValid<dstT, scaleT, true>(), \
                "AscendDequant: deqScale and dstTensor types the A2 does not take")
#define ASCENDC_SIM_SINGLE_ROW (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW)
#define ASCENDC_SIM_DEQUANT(TMP_PARAM, TMP)                                                                        \
  ASCENDC_SIM_DEQUANT_TEMPLATE                                                                                     \
  __aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,  \
                                       const LocalTensor<scaleT>& deqScale, TMP_PARAM DequantParams params,        \
                                       ASCENDC_SIM_LOC) {                                                          \
    ASCENDC_SIM_DEQUANT_TENSOR;                                                                                    \
    ascendc_sim::AscendDequantImpl<dstT, scaleT>(dstTensor, srcTensor, {&deqScale, 0, 0}, TMP, params,             \
                                                 ASCENDC_SIM_SINGLE_ROW, 0, loc);                                  \
  }                                                                                                                \
  ASCENDC_SIM_DEQUANT_TEMPLATE                                                                                     \
  __aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,  \
                                       const LocalTensor<scaleT>& deqScale, TMP_PARAM const uint32_t calCount,     \
                                       ASCENDC_SIM_LOC) {                                                          \
    ASCENDC_SIM_DEQUANT_TENSOR;                                                                                    \
    ascendc_sim::AscendDequantCount<dstT, scaleT>(dstTensor, srcTensor, deqScale, TMP, ASCENDC_SIM_SINGLE_ROW,     \
                                                  calCount, loc);                                                  \
  }                                                                                                                \
  ASCENDC_SIM_DEQUANT_TEMPLATE                                                                                     \
  __aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,  \
                                       const LocalTensor<scaleT>& deqScale, TMP_PARAM ASCENDC_SIM_LOC) {           \
    ASCENDC_SIM_DEQUANT_TENSOR;                                                                                    \
    ascendc_sim::AscendDequantCount<dstT, scaleT>(dstTensor, srcTensor, deqScale, TMP, ASCENDC_SIM_SINGLE_ROW,     \
                                                  srcTensor.GetSize(), loc);                                       \
  }                                                                                                                \
  ASCENDC_SIM_DEQUANT_TEMPLATE                                                                                     \
  __aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,  \
                                       const scaleT deqScale, TMP_PARAM DequantParams params, ASCENDC_SIM_LOC) {   \
    static_assert(ascendc_sim::DequantTypesValid<dstT, scaleT, false>(),                                           \
                  "AscendDequant: a scalar deqScale and dstTensor type the A2 does not take");                     \
    ascendc_sim::AscendDequantImpl<dstT, scaleT>(dstTensor, srcTensor, {nullptr, static_cast<float>(deqScale), 0}, \
                                                 TMP, params, ASCENDC_SIM_SINGLE_ROW, 0, loc);                     \
  }
#define ASCENDC_SIM_TMP_PARAM const LocalTensor<uint8_t>&sharedTmpBuffer,
ASCENDC_SIM_DEQUANT(, nullptr)
ASCENDC_SIM_DEQUANT(ASCENDC_SIM_TMP_PARAM, &sharedTmpBuffer)
#undef ASCENDC_SIM_TMP_PARAM
#undef ASCENDC_SIM_DEQUANT
#undef ASCENDC_SIM_SINGLE_ROW
#undef ASCENDC_SIM_DEQUANT_TENSOR
#undef ASCENDC_SIM_DEQUANT_TEMPLATE

}  // namespace AscendC
