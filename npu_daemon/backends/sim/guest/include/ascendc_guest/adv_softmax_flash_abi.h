// What crosses the guest engine's boundary for the Softmax flash family (ascendc_guest/
// adv_softmax_flash.h on the guest, runtime/guest/api_adv_softmax_flash.cpp on the host): the
// call's form as bits, and its tensors as (UB address, elements) pairs read by address.
#pragma once

#include <cstdint>

namespace ascendc_guest {

enum AdvFlash : int32_t { kFlashV2 = 1, kFlashUpdate = 2, kFlashBrc = 4, kFlashMaxForm = 8, kFlashTmp = 16 };
// dst, expSum, max, src, expMax, inExpSum, inMax, outReduceMax, sharedTmpBuffer.
enum FlashTensor : int32_t {
  kFlashDst,
  kFlashSum,
  kFlashMax,
  kFlashSrc,
  kFlashExpMax,
  kFlashInSum,
  kFlashInMax,
  kFlashReduceMax,
  kFlashTmpBuf,
  kFlashTensors
};
struct FlashHandles {
  uint32_t addr[kFlashTensors];
  uint32_t size[kFlashTensors];
};
static_assert(sizeof(FlashHandles) == 2 * kFlashTensors * 4, "FlashHandles: plain words");

}  // namespace ascendc_guest
