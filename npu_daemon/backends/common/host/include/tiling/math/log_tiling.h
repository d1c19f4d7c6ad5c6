// The Log family's host tiling (asc-devkit include/adv_api/math/log_tiling.h), with the sizes of
// its A2 implementation (impl/adv_api/tiling/math/log_tiling.cpp): Log and Log10 are single vector
// instructions and need no temporary buffer; Log2 of half works in float intermediates (4 B an
// element, at least one 256 B repeat; 2 live nodes) and of float needs none.
#pragma once

#include <cstdint>

#include "ascendc_sim/host_context.h"
#include "ascendc_sim/math_tmp_sizes.h"

namespace AscendC {

inline void GetLogMaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
}
inline void GetLogTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = extraBuf = 0;
}
inline void GetLog10MaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue,
                                  uint32_t& minValue) {
  maxValue = minValue = 0;
}
inline void GetLog10TmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = extraBuf = 0;
}
// An empty shape fails the library's host assertion, which leaves both sizes as they were.
inline void GetLog2MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                                 uint32_t& minValue) {
  const int64_t n = srcShape.GetShapeSize();
  if (n <= 0) return;
  const ascendc_sim::TmpRange r = ascendc_sim::Log2TmpRange(static_cast<uint64_t>(n), typeSize);
  minValue = r.minValue;
  maxValue = r.maxValue;
}
inline void GetLog2TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = typeSize == sizeof(float) ? 0 : 2;
  extraBuf = 0;
}

}  // namespace AscendC
