// Sorting: Sort32 and the proposal family built on it (Sort, MrgSort, Concat, Extract), on the
// A2's 8 B (score, index) pairs (included by kernel_operator.h).
#pragma once

#include "ascendc_guest/sort_params.h"
#include "ascendc_guest/vec_shape.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(vec_sort32)
void vec_sort32(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t index, uint32_t indexSize,
                int32_t repeatTime, int32_t line);
// lists: the four source lists' (UB address, elements); lengths: four 16-bit pair counts.
ASCENDC_GUEST_IMPORT(vec_mrgsort)
void vec_mrgsort(Dtype t, uint32_t d, uint32_t dSize, const uint32_t* lists, int64_t lengths, int32_t suspension,
                 int32_t validBit, int32_t repeatTimes, int32_t line);
ASCENDC_GUEST_IMPORT(vec_sort)
void vec_sort(Dtype t, int32_t fullSort, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t index,
              uint32_t indexSize, uint32_t tmp, uint32_t tmpSize, int32_t repeatTime, int32_t line);
ASCENDC_GUEST_IMPORT(vec_extract)
void vec_extract(Dtype t, uint32_t value, uint32_t valueSize, uint32_t index, uint32_t indexSize, uint32_t sorted,
                 uint32_t sortedSize, int32_t repeatTime, int32_t line);
}  // namespace ascendc_guest

namespace AscendC {

// Each repeat sorts 32 scores with their uint32 indices, descending, into 32 pairs.
template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_sort32(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src0.UbAddr(), src0.GetSize(),
                            src1.UbAddr(), src1.GetSize(), repeatTime, line);
}

// Merges up to 4 sorted lists, the highest score first; the pairs taken from each list are left in
// VMS4_SR (GetMrgSortResult).
template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, ASCENDC_GUEST_LINE) {
  const uint32_t lists[8] = {src.src1.UbAddr(), src.src1.GetSize(), src.src2.UbAddr(), src.src2.GetSize(),
                             src.src3.UbAddr(), src.src3.GetSize(), src.src4.UbAddr(), src.src4.GetSize()};
  int64_t lengths = 0;
  for (int k = 0; k < MRG_SORT_ELEMENT_LEN; ++k) lengths |= static_cast<int64_t>(params.elementLengths[k]) << (16 * k);
  ascendc_guest::vec_mrgsort(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), lists, lengths,
                             params.ifExhaustedSuspension, params.validBit, params.repeatTimes, line);
}
template <typename T, bool isExhaustedSuspension>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, ASCENDC_GUEST_LINE) {
  MrgSort(dst, sortList,
          MrgSort4Info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime)), line);
  if constexpr (isExhaustedSuspension) {
    const uint64_t sr = static_cast<uint64_t>(ascendc_guest::vec_spr(ascendc_guest::Spr::kSortedNum));
    for (int k = 0; k < 4; ++k) sortedNum[k] = static_cast<uint32_t>(sr >> (16 * k) & 0xffff);
  }
}
inline void GetMrgSortResult(uint16_t& list1, uint16_t& list2, uint16_t& list3, uint16_t& list4) {
  const uint64_t sr = static_cast<uint64_t>(ascendc_guest::vec_spr(ascendc_guest::Spr::kMrgSortResult));
  list1 = sr & 0xffff, list2 = sr >> 16 & 0xffff, list3 = sr >> 32 & 0xffff, list4 = sr >> 48 & 0xffff;
}

// On the A2 the scores are sorted where they are: concat becomes src, tmp is untouched.
template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Concat: half or float");
  (void)tmp, (void)repeatTime;
  concat = src;
}

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
          LocalTensor<T>& tmp, const int32_t repeatTime, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_sort(ascendc_guest::DtypeOf<T>(), isFullSort, dst.UbAddr(), dst.GetSize(), concat.UbAddr(),
                          concat.GetSize(), index.UbAddr(), index.GetSize(), tmp.UbAddr(), tmp.GetSize(), repeatTime,
                          line);
}

// Splits sorted pairs into their scores and indices.
template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
             const int32_t repeatTime, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_extract(ascendc_guest::DtypeOf<T>(), dstValue.UbAddr(), dstValue.GetSize(), dstIndex.UbAddr(),
                             dstIndex.GetSize(), sorted.UbAddr(), sorted.GetSize(), repeatTime, line);
}

}  // namespace AscendC
