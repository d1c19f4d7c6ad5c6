// GatherMask (pack the elements a pattern selects) and Gather (by byte offsets) (included by
// kernel_operator.h; Brcb is the elementwise family's, vector.h).
#pragma once

namespace ascendc_guest {
extern "C" {
// pattern: a tensor's UB address and bytes, or with patternBytes == 0 the built-in pattern 1..7.
// Returns the elements gathered (rsvdCnt).
ASCENDC_GUEST_IMPORT(vec_gather_mask)
int64_t vec_gather_mask(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t pattern,
                        uint32_t patternBytes, int32_t reduceMode, uint32_t mask, int32_t src0BlockStride,
                        int32_t repeatTimes, int32_t src0RepeatStride, int32_t src1RepeatStride, int32_t line);
ASCENDC_GUEST_IMPORT(vec_gather)
void vec_gather(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t offsets, uint32_t offsetsSize,
                uint32_t srcBase, uint32_t count, int32_t line);
}
}  // namespace ascendc_guest

namespace AscendC {

struct GatherMaskParams {
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 1;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 1;
};

template <typename T, typename U>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt,
                ASCENDC_GUEST_LINE) {
  static_assert(sizeof(U) == sizeof(T),
                "GatherMask: the pattern tensor is uint16_t for 2-byte data, uint32_t for 4-byte data");
  rsvdCnt = static_cast<uint64_t>(
      ascendc_guest::vec_gather_mask(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src0.UbAddr(),
                                     src0.GetSize(), src1Pattern.UbAddr(), src1Pattern.GetLength(), reduceMode, mask,
                                     p.src0BlockStride, p.repeatTimes, p.src0RepeatStride, p.src1RepeatStride, line));
}
template <typename T>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt, ASCENDC_GUEST_LINE) {
  rsvdCnt = static_cast<uint64_t>(ascendc_guest::vec_gather_mask(
      ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src0.UbAddr(), src0.GetSize(), src1Pattern, 0,
      reduceMode, mask, p.src0BlockStride, p.repeatTimes, p.src0RepeatStride, p.src1RepeatStride, line));
}

// dst[i] = the element at byte srcBaseAddr + offsets[i] of src.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offsets,
            const uint32_t srcBaseAddr, const uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_gather(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src.UbAddr(), src.GetSize(),
                            offsets.UbAddr(), offsets.GetSize(), srcBaseAddr, count, line);
}

}  // namespace AscendC
