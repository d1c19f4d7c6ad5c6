// The parameter structs of AscendQuant, AscendAntiQuant and AscendDequant on the A2 (asc-devkit
// adv_api/quantization/ascend_quant_utils.h, ascend_antiquant_utils.h, ascend_dequant_utils.h and
// basic_api's DeQuantMode), defined once for the native
// emulation (adv_quant.h) and the guest's API (ascendc_guest/adv_quant.h): plain 4-byte fields, so
// the guest's bytes are the host's struct.
#pragma once

#include <cstdint>

namespace AscendC {

// Counts that, where not 0, stand for the call's calCount / offsetCount / scaleCount.
struct AscendQuantConfig {
  constexpr AscendQuantConfig(const uint32_t calc, const uint32_t offsets, const uint32_t scales,
                              const uint32_t workLocal)
      : calcCount(calc), offsetCount(offsets), scaleCount(scales), workLocalSize(workLocal) {}
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

// The offset and scale tensors' shape for AscendAntiQuant's per-channel form (0: from the tensor).
struct AntiQuantShapeInfo {
  uint32_t offsetHeight = 0;
  uint32_t offsetWidth = 0;
  uint32_t scaleHeight = 0;
  uint32_t scaleWidth = 0;
};
static_assert(sizeof(AntiQuantShapeInfo) == 16, "AntiQuantShapeInfo: 4 words");

// AscendDequant's source shape: m rows of n int32_t (n * 4 bytes 32-byte aligned), the first
// calCount of each row dequantised.
struct DequantParams {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
};
static_assert(sizeof(DequantParams) == 12, "DequantParams: 3 words");

// DEQUANT_WITH_SINGLE_ROW takes {1, n, calCount} as {n / calCount, calCount, calCount} where
// calCount is a whole number of the destination's 32-byte blocks and divides n.
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

}  // namespace AscendC
