// GatherMask (pack the elements a pattern selects), Gather (by byte offsets) and Gatherb (by 32 B
// blocks) (included by kernel_operator.h; Brcb is the elementwise family's, vector.h).
#pragma once

namespace ascendc_guest {
// pattern: a tensor's UB address and bytes, or with patternBytes == 0 the built-in pattern 1..7.
// Returns the elements gathered (rsvdCnt).
ASCENDC_GUEST_IMPORT(vec_gather_mask)
int64_t vec_gather_mask(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t pattern,
                        uint32_t patternBytes, int32_t reduceMode, uint32_t mask, int32_t src0BlockStride,
                        int32_t repeatTimes, int32_t src0RepeatStride, int32_t src1RepeatStride, int32_t line);
ASCENDC_GUEST_IMPORT(vec_gatherb)
void vec_gatherb(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t offsets,
                 uint32_t offsetsSize, int32_t repeat, int32_t dstBlkStride, int32_t dstRepStride, int32_t line);
ASCENDC_GUEST_IMPORT(vec_gather)
void vec_gather(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t offsets, uint32_t offsetsSize,
                uint32_t srcBase, uint32_t count, int32_t line);
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

// Whole 32 B blocks of src at the byte offsets `offset` holds, 8 blocks a repeat.
template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
             const uint8_t repeatTime, const GatherRepeatParams& p, ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>, "Gatherb on the A2: uint16_t or uint32_t");
  ascendc_guest::vec_gatherb(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src.UbAddr(), src.GetSize(),
                             offset.UbAddr(), offset.GetSize(), repeatTime, p.dstBlkStride, p.dstRepStride, line);
}

// dst[i] = the element at byte srcBaseAddr + offsets[i] of src.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offsets,
            const uint32_t srcBaseAddr, const uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_gather(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src.UbAddr(), src.GetSize(),
                            offsets.UbAddr(), offsets.GetSize(), srcBaseAddr, count, line);
}

}  // namespace AscendC
