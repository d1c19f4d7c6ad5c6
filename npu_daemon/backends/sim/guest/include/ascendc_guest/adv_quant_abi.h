// What crosses the guest engine's boundary for AscendQuant, AscendAntiQuant and AscendDequant (ascendc_guest/
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
// AscendDequant: a deqScale tensor (else the scalar), a sharedTmpBuffer, DEQUANT_WITH_SINGLE_ROW,
// and a count in place of DequantParams (the forms without them).
enum AdvDequant : int32_t { kDequantTensor = 1, kDequantTmp = 2, kDequantSingleRow = 4, kDequantCount = 8 };

}  // namespace ascendc_guest
