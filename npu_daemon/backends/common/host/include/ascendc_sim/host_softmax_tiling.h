// The rest of the SoftMax family's host helpers (asc-devkit adv_api/activation/softmax_tiling.h):
// SoftmaxGrad, SoftmaxFlash, SoftmaxFlashV2 and SoftmaxFlashV3. Their Max / Min temporary sizes
// follow the documented rule of the A2 (the SoC the simulator models): float words per row of
// srcK data, one 32 B block of the reduced value per buffer and a 64-word reduction unit, times
// the rows (Max) or one row (Min); SoftmaxGrad in half keeps three copies of a row, SoftmaxFlash's
// update keeps four blocks of running max / sum. The tiling functions split the rows as
// SoftMaxTilingFunc does.
#pragma once

#include <algorithm>

#include "ascendc_sim/host_context.h"
#include "ascendc_sim/math_tmp_sizes.h"
#include "tiling/tiling_api.h"

namespace AscendC {

namespace softmax_detail {
constexpr uint32_t kBlock = 32;                   // bytes of one block
constexpr uint32_t kUnit = 64;                    // words of the reduction unit
constexpr uint32_t kFloat = 4;                    // the helpers count float words
constexpr uint32_t kBasicRows = 8;                // a basic block's rows (one block of floats)
constexpr uint32_t kBasicMaxElems = kUnit * 256;  // a basic block stays under 255 repeats
// The shape as rows x last axis (srcM, srcK).
inline void RowsCols(const ge::Shape& s, uint32_t& m, uint32_t& k) {
  k = s.GetDimNum() ? static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1)) : 1;
  const int64_t n = std::max<int64_t>(s.GetShapeSize(), 0);
  m = k ? static_cast<uint32_t>(n / k) : 0;
}
inline bool Basic(uint32_t m, uint32_t k) { return k % kUnit == 0 && m % kBasicRows == 0; }
}  // namespace softmax_detail

// ---- SoftmaxGrad ----------------------------------------------------------------------------------
// Per row: half keeps two blocks, three copies of the row and a unit; float keeps one block
// (isFront: the row-sum pass alone) or two, one copy and a unit (math_tmp_sizes.h, which the kernel
// side holds a buffer to): every row at the most, one at the least.
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool /*isReuseSource*/) {
  uint32_t m, k;
  softmax_detail::RowsCols(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
  return ascendc_sim::SoftMaxGradMaxTmpBytes(m, k, dataTypeSize, isFront);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool /*isReuseSource*/) {
  uint32_t m, k;
  softmax_detail::RowsCols(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
  return ascendc_sim::SoftMaxGradMinTmpBytes(k, dataTypeSize, isFront);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t,
                                  const bool /*isFront*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

// ---- SoftmaxFlash -------------------------------------------------------------------------------
// Per row: one block, the row and a unit; with isUpdate four blocks (running max and sum, old
// and new) and two copies of the row (math_tmp_sizes.h): every row at the most, one at the least.
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool /*isReuseSource*/) {
  uint32_t m, k;
  softmax_detail::RowsCols(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
  return ascendc_sim::SoftMaxFlashMaxTmpBytes(m, k, dataTypeSize, isUpdate);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool /*isReuseSource*/) {
  uint32_t m, k;
  softmax_detail::RowsCols(srcShape, m, k);
  if (m == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
  return ascendc_sim::SoftMaxFlashMinTmpBytes(k, dataTypeSize, isUpdate);
}
inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t,
                                   const bool /*isUpdate*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

// ---- SoftmaxFlashV2: dataTypeSize1 the source's, dataTypeSize2 the running max / sum's ----------
// Per row: a half source keeps two blocks, the row and a unit; a float source one block and a
// unit (two units at the special 1024-word basic row). A basic block (isBasicBlock, srcK a
// multiple of 64 and srcM of 8) is halved in rows until under 255 repeats, and its Min is 8 rows.
inline uint32_t SoftMaxFlashV2RowWords(uint32_t k, uint32_t typeSize1, uint32_t typeSize2, bool basic) {
  using namespace softmax_detail;
  const uint32_t blk = kBlock / typeSize2;
  const uint32_t unit = basic && k == 256 * kFloat ? kUnit * 2 : kUnit;
  if (basic) return typeSize1 == 2 ? blk + k + unit : blk + unit;
  return typeSize1 == 2 ? blk * 2 + k + kUnit : blk + kUnit;
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool /*isUpdate*/,
                                            const bool isBasicBlock = false, const bool /*isFlashOutputBrc*/ = false) {
  using namespace softmax_detail;
  uint32_t m, k;
  RowsCols(srcShape, m, k);
  if (m == 0 || dataTypeSize2 == 0) return 0;
  const bool basic = isBasicBlock && Basic(m, k);
  if (basic)
    while (m * k >= kBasicMaxElems && m > 1) m /= 2;
  return m * SoftMaxFlashV2RowWords(k, dataTypeSize1, dataTypeSize2, basic) * kFloat;
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool /*isUpdate*/,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  using namespace softmax_detail;
  uint32_t m, k;
  RowsCols(srcShape, m, k);
  if (m == 0 || dataTypeSize1 == 0 || dataTypeSize2 == 0) return 0;
  const bool basic = isBasicBlock && k % kUnit == 0;
  const uint32_t row = SoftMaxFlashV2RowWords(k, dataTypeSize1, dataTypeSize2, basic);
  uint32_t words = basic ? kBasicRows * row : row;
  // A broadcast output holds one block of rows of the source's type.
  if (isFlashOutputBrc) words = (basic ? row : words) * std::min(kBlock / dataTypeSize1, m);
  return words * kFloat;
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t /*dataTypeSize2*/, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& t, const bool /*isUpdate*/,
                                     const bool /*isBasicBlock*/ = false, const bool /*isFlashOutputBrc*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize1, localWorkSpaceSize, t);
}

// ---- SoftmaxFlashV3 (half source, float statistics) ---------------------------------------------
// One row: five blocks, two copies of the row and a unit; Max is that for every row.
inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t /*dataTypeSize1*/,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool /*isUpdate*/, const bool /*isBasicBlock*/ = false) {
  using namespace softmax_detail;
  uint32_t m, k;
  RowsCols(srcShape, m, k);
  if (dataTypeSize2 == 0) return;
  minValue = ((kBlock / dataTypeSize2) * 5 + 2 * k + kUnit) * kFloat;
  maxValue = m * minValue;
}
inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t /*dataTypeSize2*/, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& t, const bool /*isUpdate*/,
                                     const bool /*isBasicBlock*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize1, localWorkSpaceSize, t);
}

// Whether the tiling's split is a basic block: no tail rows, the last axis a multiple of 64 words
// of at least 256 bytes and under 2048.
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& t, const uint32_t dataTypeSize = 2) {
  const uint32_t k = t.get_srcK();
  return dataTypeSize != 0 && t.get_tailM() == 0 && k >= 256 / dataTypeSize && k < 2048 &&
         k % softmax_detail::kUnit == 0;
}

}  // namespace AscendC
