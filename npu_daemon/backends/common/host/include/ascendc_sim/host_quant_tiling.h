// Host helpers of the quantisation APIs and CumSum (asc-devkit adv_api/quantization/*_tiling.h,
// adv_api/math/cumsum_tiling.h): the sharedTmpBuffer sizes of math_tmp_sizes.h, the same numbers
// the kernel side refuses a buffer under (the minimum) and writes a buffer up to (the maximum).
#pragma once

#include <algorithm>
#include <cstdint>

#include "ascendc_sim/host_context.h"
#include "ascendc_sim/math_tmp_sizes.h"

namespace AscendC {

namespace sim_quant {
inline uint64_t Elements(const ge::Shape& s) { return static_cast<uint64_t>(std::max<int64_t>(s.GetShapeSize(), 0)); }
inline uint64_t Dim(const ge::Shape& s, size_t i) {
  return i < s.GetDimNum() ? static_cast<uint64_t>(std::max<int64_t>(s.GetDim(i), 0)) : 0;
}
// AscendAntiQuant's range: K the source's first dim ([K, N]; unused transposed), one scale value
// or a tensor of them, none to a half output.
inline ascendc_sim::TmpRange AntiQuant(const ge::Shape& src, const ge::Shape& scale, bool isTranspose,
                                       ge::DataType output) {
  return ascendc_sim::AscendAntiQuantTmpRange(Elements(src), Dim(src, 0), Elements(scale), isTranspose,
                                              output == ge::DT_FLOAT16);
}
}  // namespace sim_quant

inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t /*typeSize*/, uint32_t& maxValue,
                                        uint32_t& minValue) {
  const ascendc_sim::TmpRange r = ascendc_sim::AscendQuantTmpRange(sim_quant::Elements(srcShape));
  maxValue = r.maxValue;
  minValue = r.minValue;
}

// srcShape [m, n], or [n] as one row.
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t /*typeSize*/, uint32_t& maxValue,
                                          uint32_t& minValue) {
  const bool rows = srcShape.GetDimNum() == 2;
  const ascendc_sim::TmpRange r = ascendc_sim::AscendDequantTmpRange(rows ? sim_quant::Dim(srcShape, 0) : 1,
                                                                     sim_quant::Dim(srcShape, rows ? 1 : 0));
  maxValue = r.maxValue;
  minValue = r.minValue;
}

inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType /*inputDataType*/, ge::DataType outputDataType) {
  return sim_quant::AntiQuant(srcShape, scaleShape, isTranspose, outputDataType).maxValue;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType /*inputDataType*/, ge::DataType outputDataType) {
  return sim_quant::AntiQuant(srcShape, scaleShape, isTranspose, outputDataType).minValue;
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType /*inputDataType*/, ge::DataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
  const ascendc_sim::TmpRange r = sim_quant::AntiQuant(srcShape, scaleShape, isTranspose, outputDataType);
  maxValue = r.maxValue;
  minValue = r.minValue;
}

// srcShape [outter, inner]; isReuseSource changes neither size (the A2 helper ignores it).
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) {
  const ascendc_sim::TmpRange r =
      ascendc_sim::CumSumTmpRange(sim_quant::Dim(srcShape, 0), sim_quant::Dim(srcShape, 1), typeSize, isLastAxis);
  maxValue = r.maxValue;
  minValue = r.minValue;
}

}  // namespace AscendC
