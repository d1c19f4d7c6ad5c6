// What the vector instructions' mask/repeat forms share: the repeat parameter structs (passed to
// the host by address: plain uint16_t fields, the same layout on both sides), the library's lane
// constants and the mask state API. The mask registers and mode are the core's, kept on the host.
#pragma once

namespace ascendc_guest {
extern "C" {
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
}
}  // namespace ascendc_guest

namespace AscendC {

struct UnaryRepeatParams {
  UnaryRepeatParams(uint16_t dstBlk = 1, uint16_t srcBlk = 1, uint16_t dstRep = 8, uint16_t srcRep = 8)
      : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
  uint16_t dstBlkStride;
  uint16_t srcBlkStride;
  uint16_t dstRepStride;
  uint16_t srcRepStride;
};
static_assert(sizeof(UnaryRepeatParams) == 8, "read by the host as 4 uint16_t");

struct BinaryRepeatParams {
  BinaryRepeatParams(uint16_t dstBlk = 1, uint16_t src0Blk = 1, uint16_t src1Blk = 1, uint16_t dstRep = 8,
                     uint16_t src0Rep = 8, uint16_t src1Rep = 8)
      : dstBlkStride(dstBlk),
        src0BlkStride(src0Blk),
        src1BlkStride(src1Blk),
        dstRepStride(dstRep),
        src0RepStride(src0Rep),
        src1RepStride(src1Rep) {}
  uint16_t dstBlkStride;
  uint16_t src0BlkStride;
  uint16_t src1BlkStride;
  uint16_t dstRepStride;
  uint16_t src0RepStride;
  uint16_t src1RepStride;
};
static_assert(sizeof(BinaryRepeatParams) == 12, "read by the host as 6 uint16_t");

struct CopyRepeatParams {
  uint16_t dstStride = 1;
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
};
static_assert(sizeof(CopyRepeatParams) == 8, "read by the host as 4 uint16_t");
struct BrcbRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};

constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint64_t MASK_PLACEHOLDER = 0;

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

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
