// Host helpers of the high-level APIs: temporary-buffer sizes and tiling fillers.
//
// The simulator's library calls do not need scratch memory, but kernels size their buffers from
// these numbers, so they follow the real helpers' shape: the maximum lets a call work on the whole
// input in float intermediates, the minimum on one 256 B repeat at a time.
#pragma once

#include <algorithm>
#include <cstring>

#include "ascendc_sim/host_context.h"
#include "ascendc_sim/host_quant_tiling.h"
#include "ascendc_sim/host_reduce_tiling.h"
#include "ascendc_sim/math_tmp_sizes.h"
#include "ascendc_sim/norm_tmp_sizes.h"
#include "tiling/math/log_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace AscendC {

// The constants host tilings name as AscendC::BLOCK_CUBE (the cube's fractal edge), ONE_BLK_SIZE
// and CUBE_MAX_SIZE: CANN declares them in a host tiling header, each guarded by its
// ASCC_PARAM_ macro as the kernel headers guard theirs, so a unit seeing both takes the first.
#ifndef ASCC_PARAM_BLOCK_CUBE
#define ASCC_PARAM_BLOCK_CUBE
constexpr uint32_t BLOCK_CUBE = 16;
#endif
#ifndef ASCC_PARAM_ONE_BLK_SIZE
#define ASCC_PARAM_ONE_BLK_SIZE
constexpr uint32_t ONE_BLK_SIZE = 32;
#endif
#ifndef ASCC_PARAM_CUBE_MAX_SIZE
#define ASCC_PARAM_CUBE_MAX_SIZE
constexpr int32_t CUBE_MAX_SIZE = 256;
#endif

// The shape the high-level APIs' host helpers take (asc-devkit adv_api/utils/types.h).
using TensorShape = ge::Shape;

namespace sim_detail {
inline uint32_t Elements(const ge::Shape& s) { return static_cast<uint32_t>(std::max<int64_t>(s.GetShapeSize(), 0)); }
inline uint32_t Rows(const ge::Shape& s) {
  uint32_t r = 1;
  for (size_t i = 0; i + 1 < s.GetDimNum(); ++i) r *= static_cast<uint32_t>(s.GetDim(i));
  return r;
}
inline uint32_t Last(const ge::Shape& s) {
  return s.GetDimNum() ? static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1)) : 1;
}
// `buffers` float-sized intermediates per element (fewer when the source may be reused).
inline void TmpSizes(const ge::Shape& s, uint32_t typeSize, bool reuse, uint32_t buffers, uint32_t& maxValue,
                     uint32_t& minValue) {
  const ascendc_sim::TmpRange r = ascendc_sim::FloatBuffersTmpRange(Elements(s), typeSize, reuse, buffers);
  maxValue = r.maxValue;
  minValue = r.minValue;
}
}  // namespace sim_detail

// The element-wise math APIs' sizes, the same numbers the kernel side takes as the most a call
// writes of its buffer (math_tmp_sizes.h).
#define ASCENDC_SIM_MATH_TMP_SIZE(NAME)                                                                              \
  inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                       uint32_t& maxValue, uint32_t& minValue) {                                     \
    const ascendc_sim::TmpRange r =                                                                                  \
        *ascendc_sim::MathTmpRange(#NAME, sim_detail::Elements(srcShape), typeSize, isReuseSource);                  \
    maxValue = r.maxValue;                                                                                           \
    minValue = r.minValue;                                                                                           \
  }
ASCENDC_SIM_MATH_TMP_SIZE(Sigmoid)
ASCENDC_SIM_MATH_TMP_SIZE(Tanh)
ASCENDC_SIM_MATH_TMP_SIZE(Erf)
ASCENDC_SIM_MATH_TMP_SIZE(Sign)
ASCENDC_SIM_MATH_TMP_SIZE(Gelu)
ASCENDC_SIM_MATH_TMP_SIZE(FasterGelu)
ASCENDC_SIM_MATH_TMP_SIZE(Silu)
ASCENDC_SIM_MATH_TMP_SIZE(Swish)
ASCENDC_SIM_MATH_TMP_SIZE(Floor)
ASCENDC_SIM_MATH_TMP_SIZE(Ceil)
ASCENDC_SIM_MATH_TMP_SIZE(Round)
ASCENDC_SIM_MATH_TMP_SIZE(ClampMax)
ASCENDC_SIM_MATH_TMP_SIZE(ClampMin)
ASCENDC_SIM_MATH_TMP_SIZE(Exp)
ASCENDC_SIM_MATH_TMP_SIZE(Sin)
ASCENDC_SIM_MATH_TMP_SIZE(Cos)
ASCENDC_SIM_MATH_TMP_SIZE(Asin)
ASCENDC_SIM_MATH_TMP_SIZE(Acos)
ASCENDC_SIM_MATH_TMP_SIZE(Atan)
ASCENDC_SIM_MATH_TMP_SIZE(Tan)
ASCENDC_SIM_MATH_TMP_SIZE(Sinh)
ASCENDC_SIM_MATH_TMP_SIZE(Cosh)
ASCENDC_SIM_MATH_TMP_SIZE(Asinh)
ASCENDC_SIM_MATH_TMP_SIZE(Acosh)
ASCENDC_SIM_MATH_TMP_SIZE(Atanh)
ASCENDC_SIM_MATH_TMP_SIZE(Trunc)
ASCENDC_SIM_MATH_TMP_SIZE(Frac)
#undef ASCENDC_SIM_MATH_TMP_SIZE

// Broadcast's buffer, which the kernel side takes as written whole (CumSum's: host_quant_tiling.h).
inline void GetBroadcastMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  sim_detail::TmpSizes(srcShape, typeSize, isReuseSource, 1, maxValue, minValue);
}

// `maxLiveNodeCount` of Sin and Cos is their live buffer count (math_tmp_sizes.h).
inline void GetSinTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = ascendc_sim::TrigLiveNodes(typeSize, false);
  extraBuf = 0;
}
inline void GetCosTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}

// Power: a shape of one dim of 1 is a scalar operand, the other's elements size the buffers.
namespace sim_detail {
inline bool IsTensor(const ge::Shape& s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); }
}  // namespace sim_detail
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)isReuseSource;  // "not enabled currently" (asc-devkit's power.h)
  const bool tensor1 = sim_detail::IsTensor(srcShape1);
  const ascendc_sim::TmpRange r =
      ascendc_sim::PowerTmpRange(sim_detail::Elements(tensor1 ? srcShape1 : srcShape2),
                                 tensor1 && sim_detail::IsTensor(srcShape2), typeIsInt, typeSize);
  maxValue = r.maxValue;
  minValue = r.minValue;
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  const ascendc_sim::PowerNodes live = ascendc_sim::PowerLive(baseIsTensor && expIsTensor, typeIsInt, typeSize);
  maxLiveNodeCount = live.nodes;
  extraBuffer = live.extra;
}

// The library's spelling for the BroadCast API: sized by the destination, which it fills.
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)srcShape;
  sim_detail::TmpSizes(dstShape, typeSize, isReuseSource, 1, maxValue, minValue);
}
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                uint32_t& minValue) {
  sim_detail::TmpSizes(ge::Shape({static_cast<int64_t>(n)}), typeSize, isReuseSource, 1, maxValue, minValue);
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)accTypeSize;
  sim_detail::TmpSizes(ge::Shape({static_cast<int64_t>(n)}), srcTypeSize, isReuseSource, 1, maxValue, minValue);
}
inline void GetReduceSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  sim_detail::TmpSizes(srcShape, typeSize, isReuseSource, 1, maxValue, minValue);
}

// ---- SoftMax / LogSoftMax ----------------------------------------------------------------------
// The maximum is the one the kernel side takes as the most a call writes of its buffer.
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return ascendc_sim::SoftMaxMaxTmpBytes(sim_detail::Rows(srcShape), sim_detail::Elements(srcShape), dataTypeSize,
                                         isReuseSource);
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return ascendc_sim::SoftMaxMinTmpBytes(sim_detail::Rows(srcShape), sim_detail::Elements(srcShape),
                                         sim_detail::Last(srcShape), dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& s, const uint32_t t, const bool r) {
  return GetSoftMaxMaxTmpSize(s, t, r);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& s, const uint32_t t, const bool r) {
  return GetSoftMaxMinTmpSize(s, t, r);
}

// Rows per pass that fit the workspace; the rest of the fields describe that split.
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& t) {
  const uint32_t m = sim_detail::Rows(srcShape), k = sim_detail::Last(srcShape);
  const uint32_t blockElems = 32 / dataTypeSize;
  const uint32_t perRow = k * 4 + 64;
  const uint32_t split =
      std::max<uint32_t>(1, std::min<uint32_t>(m, localWorkSpaceSize / std::max<uint32_t>(perRow, 1)));
  t.set_srcM(m), t.set_srcK(k), t.set_srcSize(m * k);
  t.set_outMaxM(m), t.set_outMaxK(blockElems), t.set_outMaxSize(m * blockElems);
  t.set_splitM(split), t.set_splitK(k), t.set_splitSize(split * k);
  t.set_reduceM(split), t.set_reduceK(blockElems), t.set_reduceSize(split * blockElems);
  t.set_rangeM(m / split), t.set_tailM(m % split), t.set_tailSplitSize((m % split) * k),
      t.set_tailReduceSize((m % split) * blockElems);
}
inline void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

// ---- LayerNorm: shape [B, S, H] ---------------------------------------------------------------
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  sim_detail::TmpSizes(srcShape, typeSize, isReuseSource, 2, maxValue, minValue);
  minValue = std::max(minValue, sim_detail::Last(srcShape) * 4 * 2);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& t) {
  (void)isReuseSource;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  t.set_bLength(b), t.set_sLength(s), t.set_hLength(h), t.set_originalHLength(h);
  t.set_inputXSize(b * s * h), t.set_meanVarSize(b * s), t.set_numberOfTmpBuf(2), t.set_tmpBufSize(stackBufferSize / 4);
  const uint32_t rows =
      std::max<uint32_t>(1, std::min<uint32_t>(b * s, stackBufferSize / std::max<uint32_t>(h * 8, 1)));
  t.set_loopRound(b * s / rows), t.set_inputRoundSize(rows * h), t.set_inputTailSize((b * s % rows) * h);
  t.set_meanVarRoundSize(rows), t.set_meanVarTailSize(b * s % rows),
      t.set_lastDimValueBack(1.0f / static_cast<float>(h));
  (void)typeSize;
}

// ---- LayerNorm with rstd, Normalize, WelfordUpdate / WelfordFinalize: shape [A, R] --------------
// The A2 sizes of asc-devkit's documentation (LayerNorm-Tiling.md, Normalize-Tiling.md,
// WelfordUpdate-Tiling.md, WelfordFinalize-Tiling.md): float intermediates, R padded to 32 B of
// the input type, each buffer rounded up to 32 B.
namespace sim_detail {
inline uint32_t Blocks32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }
inline uint32_t PaddedR(const ge::Shape& s, uint32_t typeSize) {
  const uint32_t align = 32 / std::max<uint32_t>(typeSize, 1);
  return (Last(s) + align - 1) / align * align;
}
inline uint32_t Dim0(const ge::Shape& s) { return s.GetDimNum() ? static_cast<uint32_t>(s.GetDim(0)) : 1; }
}  // namespace sim_detail
// Normalize (y from a given mean and variance): 2 [R] (gamma, beta) and 2 [A, R] at the most; at
// the least the larger of [A] and 2 [R] (4 [R] when gamma and beta are not float).
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource, (void)isComputeRstd, (void)isOnlyOutput;
  const uint32_t a = sim_detail::Dim0(srcShape), r = sim_detail::PaddedR(srcShape, typeSizeT);
  const uint32_t rBytes = sim_detail::Blocks32(uint64_t{r} * 4);
  maxValue = 2 * rBytes + 2 * sim_detail::Blocks32(uint64_t{(a + 7) / 8 * 8} * r * 4);
  minValue = std::max(sim_detail::Blocks32(uint64_t{a} * 4), (typeSizeU == 4 ? 2 : 4) * rBytes);
}
// LayerNorm returning rstd: 2 [A, R] and [A] at the most, 2 [R] and [A] at the least, and never
// less than the Normalize step's own need beside the [A].
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
  const uint32_t a = sim_detail::Dim0(srcShape), r = sim_detail::PaddedR(srcShape, typeSize);
  const uint32_t mv = sim_detail::Blocks32(uint64_t{a} * 4);
  uint32_t normMax = 0, normMin = 0;
  GetNormalizeMaxMinTmpSize(srcShape, typeSize, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, normMax, normMin);
  maxValue = mv + std::max(2 * sim_detail::Blocks32(uint64_t{a} * r * 4), normMax);
  minValue = mv + std::max(2 * sim_detail::Blocks32(uint64_t{r} * 4), normMin);
}
// How the rstd form splits [A, R] over a stack buffer: a variance [A] first, then two buffers of
// whole rows, as many rows as fit (at most A); loops of that many rows and a tail.
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& t) {
  (void)isReuseSource, (void)isComputeRstd;
  const uint32_t a = sim_detail::Dim0(srcShape), r = sim_detail::PaddedR(srcShape, typeSize);
  const uint32_t varElems = (a + 7) / 8 * 8, xElems = a * r;
  const uint32_t free = stackBufferSize / 4 > varElems ? stackBufferSize / 4 - varElems : 0;
  const uint32_t one = std::min(free / 2 / std::max<uint32_t>(r, 1) * r, xElems);
  t.set_aLength(a), t.set_rLength(sim_detail::Last(srcShape));
  t.set_inputXSize(xElems), t.set_meanVarSize(a), t.set_numberOfTmpBuf(2);
  t.set_varianceTmpTensorPos(0), t.set_varianceTmpTensorSize(varElems), t.set_tmpBufSize(stackBufferSize / 4);
  t.set_rValueBack(1.0f / static_cast<float>(std::max<uint32_t>(sim_detail::Last(srcShape), 1)));
  if (one == 0) return;  // not even one row fits: the caller sees oneTmpSize 0
  t.set_oneTmpSize(one), t.set_firstTmpStartPos(varElems), t.set_secondTmpStartPos(varElems + one);
  t.set_loopRound(xElems / one), t.set_inputRoundSize(one), t.set_inputTailSize(xElems % one);
  t.set_inputTailPos(xElems / one * one), t.set_meanVarRoundSize(one / r), t.set_meanVarTailSize(xElems % one / r);
  t.set_meanVarTailPos(xElems / one * (one / r)), t.set_arCurLength(one), t.set_aCurLength(one / r);
}
// WelfordUpdate over [rn, ab]: buffers of one 256 B repeat (3 for a 2-byte input, 1 reusing a
// float source, else 2) at the least, that many per repeat of the whole input at the most.
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
  (void)typeSizeU, (void)isInplace;
  minValue = (typeSizeT == 2 ? 3 : isReuseSource ? 1 : 2) * 256;
  maxValue = (sim_detail::Elements(srcShape) + 63) / 64 * minValue;
}
// WelfordFinalize over [ab] (a multiple of 8 floats): four 64-float buffers at the least; two of
// them and two [ab] at the most beyond 64 elements.
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize, (void)isReuseSource;
  const uint32_t ab = sim_detail::Dim0(srcShape);
  minValue = 64 * 4 * 4;
  maxValue = ab <= 64 ? minValue : (64 * 2 + ab * 2) * 4;
}

// ---- RmsNorm: shape [B, S, H], H padded to 32 B; originSrcShape carries the real H -------------
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  (void)isBasicBlock;
  sim_detail::TmpSizes(srcShape, typeSize, false, 2, maxValue, minValue);
  minValue = std::max(minValue, sim_detail::Last(srcShape) * 4 + 32);
  return true;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& t, const bool isBasicBlock = false) {
  (void)isBasicBlock;
  (void)typeSize;
  if (srcShape.GetDimNum() != 3) return false;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2)), oh = static_cast<uint32_t>(originSrcShape.GetDim(2));
  t.set_bLength(b), t.set_sLength(s), t.set_hLength(h), t.set_originalHLength(oh);
  t.set_reciprocalOfHLength(1.0f / static_cast<float>(oh));
  const uint32_t rows =
      std::max<uint32_t>(1, std::min<uint32_t>(b * s, stackBufferByteSize / std::max<uint32_t>(h * 4 + 32, 1)));
  t.set_mainBsLength(rows), t.set_mainBshLength(rows * h), t.set_mainBsLengthAlign((rows + 7) / 8 * 8);
  t.set_loopRound(b * s / rows), t.set_inputTailPos(b * s / rows * rows * h);
  t.set_tailBsLength(b * s % rows), t.set_tailBshLength((b * s % rows) * h);
  return true;
}

// ---- DeepNorm: shape [B, S, H], H 32 B aligned and at most 2040 ---------------------------------
// Float mean and variance [B, S] beside three float work buffers (two when a float source may be
// reused): each of the whole [B, S, H] at the most, of one row [H] at the least.
namespace sim_detail {
inline uint32_t DeepNormBuffers(uint32_t typeSize, bool isReuseSource) {
  return isReuseSource && typeSize == sizeof(float) ? 2 : 3;
}
}  // namespace sim_detail
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
  (void)isBasicBlock;
  if (srcShape.GetDimNum() != 3) return false;
  const uint64_t bs = static_cast<uint64_t>(srcShape.GetDim(0)) * srcShape.GetDim(1), h = srcShape.GetDim(2);
  const uint32_t stats = 2 * sim_detail::Blocks32(bs * 4), bufs = sim_detail::DeepNormBuffers(typeSize, isReuseSource);
  maxValue = bufs * sim_detail::Blocks32(bs * h * 4) + stats;
  minValue = bufs * sim_detail::Blocks32(h * 4) + stats;
  return true;
}
// The stack buffer in floats: the mean and variance [B, S] (8-aligned) first, then the work buffers
// of as many whole rows as fit (at most B * S); loops of that many rows and a tail.
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& t) {
  (void)isBasicBlock;
  if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3) return false;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2)), oh = static_cast<uint32_t>(originSrcShape.GetDim(2));
  if (h == 0 || oh == 0 || oh > h) return false;
  const uint32_t bs = b * s, bsh = bs * h, stat = (bs + 7) / 8 * 8, floats = stackBufferSize / 4;
  const uint32_t bufs = sim_detail::DeepNormBuffers(typeSize, isReuseSource);
  const uint32_t one = floats > 2 * stat ? std::min((floats - 2 * stat) / bufs / h * h, bsh) : 0;
  if (one == 0) return false;  // not even one row fits beside the statistics
  t.set_bLength(b), t.set_sLength(s), t.set_hLength(h), t.set_originalHLength(oh);
  t.set_inputXSize(bsh), t.set_meanVarSize(bs), t.set_numberOfTmpBuf(bufs);
  t.set_meanTmpTensorPos(0), t.set_meanTmpTensorSize(stat), t.set_varianceTmpTensorPos(stat),
      t.set_varianceTmpTensorSize(stat);
  t.set_tmpBufSize(floats), t.set_oneTmpSize(one), t.set_firstTmpStartPos(2 * stat);
  t.set_secondTmpStartPos(2 * stat + one), t.set_thirdTmpStartPos(2 * stat + 2 * one);
  t.set_loopRound(bsh / one), t.set_inputRoundSize(one), t.set_inputTailSize(bsh % one);
  t.set_inputTailPos(bsh / one * one), t.set_meanVarRoundSize(one / h), t.set_meanVarTailSize(bsh % one / h);
  t.set_meanVarTailPos(bsh / one * (one / h)), t.set_bshCurLength(one), t.set_bsCurLength(one / h);
  t.set_lastDimValueBack(1.0f / static_cast<float>(oh));
  return true;
}

// ---- LayerNormGradBeta: shape [B, S, H, originalH] --------------------------------------------
// Float work buffers: two (a half input's float gamma / beta [H] and its dy / resForGamma rows) or,
// for float, one; each of [B, S, H] at the most and of [H] at the least.
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  if (srcShape.GetDimNum() < 4) return;
  const uint64_t bsh = static_cast<uint64_t>(srcShape.GetDim(0)) * srcShape.GetDim(1) * srcShape.GetDim(2);
  const uint32_t bufs = typeSize == 2 ? 4 : 2;
  maxValue = static_cast<uint32_t>(bufs * bsh * 4);
  minValue = static_cast<uint32_t>(bufs * srcShape.GetDim(2) * 4);
}
// The stack buffer in floats: for a half input two [H] (float gamma and beta) first and the rest
// halved between dy and resForGamma; whole rows of it per round (at most B * S), and a tail.
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& t) {
  (void)isReuseSource;
  if (srcShape.GetDimNum() < 4) return;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2)), floats = stackBufferSize / 4;
  if (h == 0 || floats < 2 * h) return;  // the library asserts: not enough stack buffer
  const bool b16 = typeSize == 2;
  const uint32_t bsh = b * s * h, one = std::min(((b16 ? (floats - 2 * h) / 2 : floats) / h) * h, bsh);
  if (one == 0) return;
  t.set_stackBufferSize(floats), t.set_bLength(b), t.set_sLength(s), t.set_hLength(h);
  t.set_originalHLength(static_cast<uint32_t>(srcShape.GetDim(3))), t.set_bshLength(bsh), t.set_bsLength(b * s);
  t.set_oneCalSize(one), t.set_numberOfTmpBuf(b16 ? 2 : 1), t.set_loopRound(bsh / one);
  t.set_inputTailSize(bsh % one), t.set_inputTailPos(bsh - bsh % one), t.set_bsTailSize(bsh % one / h);
  t.set_bshCurLength(one), t.set_bsCurLength(one / h);
  t.set_gammaTempTensorPos(0), t.set_betaTempTensorPos(b16 ? h : 0), t.set_inputDyTmpTensorPos(b16 ? 2 * h : 0);
  t.set_resForGammaTmpTensorPos(b16 ? 2 * h + one : 0);
}

// ---- BatchNorm: shape [B, S, H] (originSrcShape's B), S * H 32 B aligned ---------------------------
// The sizes are the A2 helper's (ascendc_sim/norm_tmp_sizes.h); the kernel refuses less than the
// minimum. The stack buffer in floats: for a half input the float mean and variance [S * H] first,
// then three work buffers of whole batch columns (a multiple of B blocks), a round of them and a tail.
inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                      const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue, const bool isBasicBlock = false) {
  (void)isReuseSource;
  if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3) return false;
  const uint32_t b = static_cast<uint32_t>(originSrcShape.GetDim(0));
  const uint64_t sh = static_cast<uint64_t>(srcShape.GetDim(1)) * srcShape.GetDim(2);
  if (isBasicBlock && (b % 8 != 0 || sh % 64 != 0)) return false;
  const ascendc_sim::TmpRange r = ascendc_sim::BatchNormTmpRange(b, sh, typeSize, isBasicBlock);
  maxValue = r.maxValue, minValue = r.minValue;
  return true;
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::BatchNormTiling& t,
                                     const bool isBasicBlock = false) {
  uint32_t mx = 0, mn = 0;
  if (!GetBatchNormMaxMinTmpSize(srcShape, originSrcShape, typeSize, isReuseSource, mx, mn, isBasicBlock) ||
      stackBufferByteSize < mn)
    return false;
  const uint32_t b = static_cast<uint32_t>(originSrcShape.GetDim(0));
  const uint32_t sh = static_cast<uint32_t>(srcShape.GetDim(1) * srcShape.GetDim(2));
  if (b == 0 || sh * typeSize % 32 != 0) return false;
  const uint32_t stat = (sh + 7) / 8 * 8, stats = typeSize == 4 ? 0 : 2 * stat, floats = stackBufferByteSize / 4;
  const uint32_t unit = b * (typeSize == 4 ? 8 : 16);
  uint32_t one = std::min((floats - std::min(floats, stats)) / 3 / unit * unit, b * sh);
  uint32_t cols = one / b;
  if (isBasicBlock) cols = cols / 64 * 64, one = cols * b;
  if (one == 0) return false;
  t.set_originalBLength(b), t.set_meanVarSize(sh), t.set_meanTmpTensorPos(0), t.set_varianceTmpTensorPos(stat);
  t.set_tmpBufSize(floats), t.set_oneTmpSize(one), t.set_firstTmpStartPos(stats);
  t.set_secondTmpStartPos(stats + one), t.set_thirdTmpStartPos(stats + 2 * one);
  t.set_loopRound(b * sh / one), t.set_inputTailSize(b * sh % one), t.set_inputTailPos((b * sh - b * sh % one) / b);
  t.set_meanVarTailSize(b * sh % one / b), t.set_meanVarTailPos(sh - b * sh % one / b);
  t.set_bshCurLength(one), t.set_shCurLength(cols), t.set_firstDimValueBack(1.0f / static_cast<float>(b));
  t.set_castHalfRepStride(4), t.set_shCurLengthBlockNum(cols / 8), t.set_castHalfOutRepStride(sh / 16);
  return true;
}

// ---- GroupNorm: shape [N, C, H, W] in groupNum groups ---------------------------------------------
// The stack buffer in floats: for a half input the float mean and variance [N, groupNum] first,
// then three work buffers (two for a reusable float input) of whole groups, d channels of H * W
// padded to 32 B; a round of them and a tail.
inline void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
  if (srcShape.GetDimNum() != 4) return;
  const ascendc_sim::TmpRange r = ascendc_sim::GroupNormTmpRange(
      static_cast<uint32_t>(srcShape.GetDim(0)), static_cast<uint32_t>(srcShape.GetDim(1)),
      static_cast<uint64_t>(srcShape.GetDim(2)) * srcShape.GetDim(3), groupNum, typeSize, isReuseSource);
  maxValue = r.maxValue, minValue = r.minValue;
}
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum, optiling::GroupNormTiling& t) {
  if (srcShape.GetDimNum() != 4 || groupNum == 0 || (typeSize != 2 && typeSize != 4)) return;
  const uint32_t n = static_cast<uint32_t>(srcShape.GetDim(0)), c = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t hw = static_cast<uint32_t>(srcShape.GetDim(2) * srcShape.GetDim(3)), d = c / groupNum;
  const uint32_t hwa = (hw * typeSize + 31) / 32 * 32 / typeSize, dhwa = d * hwa, input = n * c * hwa;
  const uint32_t groups = n * groupNum, stat = (groups + 7) / 8 * 8, stats = typeSize == 4 ? 0 : 2 * stat;
  const uint32_t bufs = isReuseSource && typeSize == 4 ? 2 : 3, floats = stackBufferSize / 32 * 32 / 4;
  if (dhwa == 0) return;
  uint32_t perRound = (floats - std::min(floats, stats)) / bufs / dhwa, one = perRound * dhwa;
  if (one > input) perRound = groups, one = input;
  if (one == 0) return;  // not one group fits: the library asserts
  t.set_n(n), t.set_c(c), t.set_hw(hw), t.set_g(groupNum), t.set_d(d), t.set_hwAlignSize(hwa);
  t.set_dhwAlignSize(dhwa), t.set_inputXSize(input), t.set_meanVarSize(groups), t.set_numberOfTmpBuf(bufs);
  t.set_meanTmpTensorPos(0), t.set_meanTmpTensorSize(stat), t.set_varianceTmpTensorPos(stat);
  t.set_varianceTmpTensorSize(stat), t.set_tmpBufSize(floats), t.set_oneTmpSize(one);
  t.set_firstTmpStartPos(stats), t.set_secondTmpStartPos(stats + one), t.set_thirdTmpStartPos(stats + 2 * one);
  t.set_loopRound(input / one), t.set_inputRoundSize(one), t.set_inputTailSize(input % one);
  t.set_inputTailPos(input - input % one), t.set_meanVarRoundSize(perRound);
  t.set_meanVarTailSize(input % one / dhwa), t.set_meanVarTailPos(groups - input % one / dhwa);
  t.set_bshCurLength(one), t.set_bsCurLength(perRound), t.set_factor(1.0f / static_cast<float>(d * hw));
  t.set_smallShape(hwa <= 64 && dhwa <= 512);
}

// ---- LayerNormGrad: shape [B, S, H, originalH] ----------------------------------------------------
// The stack buffer in floats split into the helper's buffers (nine for half, six or four for float),
// each of whole rows rounded up to a block of them; 1/H and 2/H kept as float bits.
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
  if (srcShape.GetDimNum() != 4) return;
  const ascendc_sim::TmpRange r = ascendc_sim::LayerNormGradTmpRange(
      static_cast<uint32_t>(srcShape.GetDim(0)), static_cast<uint32_t>(srcShape.GetDim(1)),
      static_cast<uint32_t>(srcShape.GetDim(2)), typeSize, isReuseSource);
  maxValue = r.maxValue, minValue = r.minValue;
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& t) {
  if (srcShape.GetDimNum() != 4 || (typeSize != 2 && typeSize != 4)) return;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2)), oh = static_cast<uint32_t>(srcShape.GetDim(3));
  const bool reuse = isReuseSource && typeSize == 4;
  const uint32_t bufs = typeSize == 2 ? 9 : (reuse ? 4 : 6);
  if (h == 0 || oh == 0 || stackBufferSize / 4 / bufs < h) return;  // not one row: the library asserts
  const uint32_t perBlock = 32 / typeSize, rows = (stackBufferSize / 4 / bufs / h + perBlock - 1) / perBlock * perBlock;
  const uint32_t one = rows * h, input = b * s * h;
  t.set_stackBufferSize(stackBufferSize), t.set_bLength(b), t.set_sLength(s), t.set_hLength(h);
  t.set_originalHLength(oh), t.set_oneCalSize(one), t.set_nohCalSize(rows), t.set_loopNum(input / one);
  t.set_tailSize(input % one), t.set_nohTailSize(input % one / h);
  // Buffers one after another: the BSH work buffer, pdVar, pdMean, then x1 and x2 unless a float
  // input is reused, x3, and for half three more.
  const uint32_t x1 = reuse ? 0 : 3 * one, x3 = reuse ? 3 * one : 5 * one;
  t.set_tmpTensorBSHPos(0), t.set_pdVarTensorPos(one), t.set_pdMeanTensorPos(2 * one);
  t.set_x1TensorPos(x1), t.set_x2TensorPos(reuse ? 0 : 4 * one), t.set_x3TensorPos(x3);
  t.set_tmpTensorPos(typeSize == 2 ? x3 + one : 0), t.set_tmpTensor1Pos(typeSize == 2 ? x3 + 2 * one : 0);
  t.set_tmpTensor2Pos(typeSize == 2 ? x3 + 3 * one : 0);
  t.set_tmpTensorBSHSize(one), t.set_pdVarTensorSize(one), t.set_pdMeanTensorSize(one), t.set_x1TensorSize(one);
  t.set_x2TensorSize(one), t.set_x3TensorSize(one), t.set_tmpTensorSize(one), t.set_tmpTensor1Size(one);
  t.set_tmpTensor2Size(one);
  const float rec = 1.0f / static_cast<float>(oh), rec2 = 2.0f / static_cast<float>(oh);
  uint32_t bits = 0;
  std::memcpy(&bits, &rec, sizeof bits);
  t.set_lastDimValueBack(bits);
  std::memcpy(&bits, &rec2, sizeof bits);
  t.set_lastDimValueBackMulTwo(bits);
}

}  // namespace AscendC

#include "ascendc_sim/host_softmax_tiling.h"
