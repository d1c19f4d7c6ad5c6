// What crosses the guest engine's boundary for AscendQuant and AscendAntiQuant (ascendc_guest/
// adv_quant.h on the guest, runtime/guest/api_adv_quant.cpp on the host): which operands a call
// names, as bits of its `form`.
#pragma once

#include <cstdint>

namespace ascendc_guest {

enum AdvQuant : int32_t { kQuantScaleTensor = 1, kQuantOffsetTensor = 2, kQuantTmp = 4 };
enum AdvAntiQuant : int32_t {
  kAntiOffset = 1,
  kAntiOffsetTensor = 2,
  kAntiScaleTensor = 4,
  kAntiTmp = 8,
  kAntiTranspose = 16,
};

}  // namespace ascendc_guest
