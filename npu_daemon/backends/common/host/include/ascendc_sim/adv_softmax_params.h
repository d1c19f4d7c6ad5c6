// The configuration the Softmax flash family takes as a template argument (asc-devkit
// adv_api/activation/softmax_utils.h): SoftmaxConfig with its output mode, and SoftMaxParams of
// SoftmaxFlashV3. Defined once for the native emulation (adv_softmax_flash.h) and the guest's API
// (ascendc_guest/adv_softmax_flash.h).
#pragma once

#include <cstdint>

namespace AscendC {

// SOFTMAX_NORMAL writes each row's statistics across one 32 B block; WITHOUT_BRC writes one value a row.
enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
  constexpr SoftmaxConfig(const bool check) : isCheckTiling(check) {}
  constexpr SoftmaxConfig(const bool check, const uint32_t m, const uint32_t k)
      : isCheckTiling(check), oriSrcM(m), oriSrcK(k) {}
  constexpr SoftmaxConfig(const bool check, const uint32_t m, const uint32_t k, const SoftmaxMode outMode)
      : isCheckTiling(check), oriSrcM(m), oriSrcK(k), mode(outMode) {}
  bool isCheckTiling = true;  // recompute the tiling when the shape disagrees (the emulation reads the shape)
  uint32_t oriSrcM = 0;       // a constant shape, when set, in place of the call's
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC
