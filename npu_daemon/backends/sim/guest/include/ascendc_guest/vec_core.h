// What the vector instructions' mask/repeat forms share: the repeat parameter structs (passed to
// the host by address: plain uint16_t fields, the same layout on both sides), the library's lane
// constants and the mask state API. The mask registers and mode are the core's, kept on the host.
#pragma once

#include "ascendc_guest/repeat_params.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(mask_set)
void mask_set(int64_t high, int64_t low);
ASCENDC_GUEST_IMPORT(mask_set_len)
void mask_set_len(int32_t counter, int32_t len);
ASCENDC_GUEST_IMPORT(mask_utils_len)
void mask_utils_len(Dtype t, int32_t len);
ASCENDC_GUEST_IMPORT(mask_mode)
void mask_mode(int32_t counter);
ASCENDC_GUEST_IMPORT(mask_reset)
void mask_reset();
}  // namespace ascendc_guest

namespace AscendC {

template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
  ascendc_guest::mask_set(static_cast<int64_t>(maskHigh), static_cast<int64_t>(maskLow));
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len) {
  ascendc_guest::mask_set_len(mode == MaskMode::COUNTER, len);
}
inline void SetMaskCount() { ascendc_guest::mask_mode(1); }
inline void SetMaskNorm() { ascendc_guest::mask_mode(0); }
inline void ResetMask() { ascendc_guest::mask_reset(); }

// The library's mask utility class (kernel_utils.h), which operators call directly.
class AscendCUtils {
 public:
  static int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
  static int32_t GetC0Size() { return 32; }
  static int32_t GetC0Count(int32_t dtypeSize) { return GetC0Size() / dtypeSize; }
  // The elements the last GatherMask kept (asc-devkit kernel_utils_base.h: the register get_rsvd_cnt reads).
  static int64_t GetRsvdCnt() { return ascendc_guest::cce_rsvd_cnt(); }
  template <typename T, bool isSetMask = true>
  static void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
    if constexpr (isSetMask) SetVectorMask<T>(maskHigh, maskLow);
  }
  template <typename T, bool isSetMask = true>
  static void SetMask(int32_t len) {
    if constexpr (isSetMask) ascendc_guest::mask_utils_len(ascendc_guest::DtypeOf<T>(), len);
  }
  template <typename T>
  static void SetMaskCount() {
    AscendC::SetMaskCount();
  }
  template <typename T>
  static void SetMaskNorm() {
    AscendC::SetMaskNorm();
  }
  template <bool isSetMask = true>
  static void ResetMask() {
    if constexpr (isSetMask) AscendC::ResetMask();
  }
};

}  // namespace AscendC
