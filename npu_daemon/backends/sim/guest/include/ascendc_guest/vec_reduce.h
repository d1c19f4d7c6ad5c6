// The reductions' repeat forms: WholeReduce* and RepeatReduceSum (one result per repeat),
// BlockReduce* (one per 32 B block), PairReduceSum, the mask forms of ReduceSum/Max/Min, and the
// special registers they leave for the scalar unit (included by kernel_operator.h; the count
// forms of ReduceSum/Max/Min are in vector.h).
#pragma once

#include "ascendc_guest/vec_shape.h"

namespace AscendC {
enum ReduceOrder { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
}  // namespace AscendC

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(vec_repeat_reduce)
void vec_repeat_reduce(RepeatReduce op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize,
                       const VecShape* shape, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                       int32_t order, int32_t line);
ASCENDC_GUEST_IMPORT(vec_range_reduce)
void vec_range_reduce(Reduce op, Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, uint32_t w,
                      uint32_t wSize, const VecShape* shape, int32_t srcRepStride, int32_t calIndex, int32_t line);

template <typename T>
void RepeatReduceCall(RepeatReduce op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const VecShape& s, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                      int32_t order, int32_t line) {
  vec_repeat_reduce(op, DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src.UbAddr(), src.GetSize(), &s, dstRepStride,
                    srcBlkStride, srcRepStride, order, line);
}
template <typename T>
void RangeReduceCall(Reduce op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<T>& work, const VecShape& s, int32_t srcRepStride, bool calIndex,
                     int32_t line) {
  vec_range_reduce(op, DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src.UbAddr(), src.GetSize(), work.UbAddr(),
                   work.GetSize(), &s, srcRepStride, calIndex, line);
}

}  // namespace ascendc_guest

namespace AscendC {

// ---- WholeReduceSum/Max/Min, RepeatReduceSum ------------------------------------------------------
#define ASCENDC_GUEST_WHOLE_REDUCE(MaskType)                                                                           \
  template <typename T, bool isSetMask = true>                                                                         \
  void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskType mask, const int32_t repeatTime,   \
                      const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,              \
                      ASCENDC_GUEST_LINE) {                                                                            \
    ascendc_guest::RepeatReduceCall(ascendc_guest::RepeatReduce::kWholeSum, dst, src,                                  \
                                    ascendc_guest::MaskShape<isSetMask>(mask, repeatTime), dstRepStride, srcBlkStride, \
                                    srcRepStride, 0, line);                                                            \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskType mask, const int32_t repeatTime,   \
                      const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,              \
                      ReduceOrder order = ORDER_VALUE_INDEX, ASCENDC_GUEST_LINE) {                                     \
    ascendc_guest::RepeatReduceCall(ascendc_guest::RepeatReduce::kWholeMax, dst, src,                                  \
                                    ascendc_guest::MaskShape<isSetMask>(mask, repeatTime), dstRepStride, srcBlkStride, \
                                    srcRepStride, order, line);                                                        \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskType mask, const int32_t repeatTime,   \
                      const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,              \
                      ReduceOrder order = ORDER_VALUE_INDEX, ASCENDC_GUEST_LINE) {                                     \
    ascendc_guest::RepeatReduceCall(ascendc_guest::RepeatReduce::kWholeMin, dst, src,                                  \
                                    ascendc_guest::MaskShape<isSetMask>(mask, repeatTime), dstRepStride, srcBlkStride, \
                                    srcRepStride, order, line);                                                        \
  }
ASCENDC_GUEST_WHOLE_REDUCE(const int32_t)
ASCENDC_GUEST_WHOLE_REDUCE(const uint64_t*)
#undef ASCENDC_GUEST_WHOLE_REDUCE

template <typename T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask,
                     const int32_t dstBlkStride, const int32_t srcBlkStride, const int32_t dstRepStride,
                     const int32_t srcRepStride, ASCENDC_GUEST_LINE) {
  (void)dstBlkStride;  // one result per repeat: no block stride on the destination
  ascendc_guest::RepeatReduceCall(ascendc_guest::RepeatReduce::kRepeatSum, dst, src,
                                  ascendc_guest::MaskShape<isSetMask>(static_cast<uint64_t>(mask), repeatTime),
                                  dstRepStride, srcBlkStride, srcRepStride, 0, line);
}

// ---- BlockReduceSum/Max/Min (one result per 32 B block), PairReduceSum (per pair) ---------------
#define ASCENDC_GUEST_GROUP_REDUCE(Name, Code, MaskType)                                                               \
  template <typename T, bool isSetMask = true>                                                                         \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, MaskType mask,             \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, ASCENDC_GUEST_LINE) {  \
    ascendc_guest::RepeatReduceCall(ascendc_guest::RepeatReduce::Code, dst, src,                                       \
                                    ascendc_guest::MaskShape<isSetMask>(mask, repeatTime), dstRepStride, srcBlkStride, \
                                    srcRepStride, 0, line);                                                            \
  }
#define ASCENDC_GUEST_GROUP_REDUCES(Name, Code)         \
  ASCENDC_GUEST_GROUP_REDUCE(Name, Code, const int32_t) \
  ASCENDC_GUEST_GROUP_REDUCE(Name, Code, const uint64_t*)
ASCENDC_GUEST_GROUP_REDUCES(BlockReduceSum, kBlockSum)
ASCENDC_GUEST_GROUP_REDUCES(BlockReduceMax, kBlockMax)
ASCENDC_GUEST_GROUP_REDUCES(BlockReduceMin, kBlockMin)
ASCENDC_GUEST_GROUP_REDUCES(PairReduceSum, kPairSum)
#undef ASCENDC_GUEST_GROUP_REDUCES
#undef ASCENDC_GUEST_GROUP_REDUCE

// ---- the mask forms of ReduceSum / ReduceMax / ReduceMin over a whole range ----------------------
// repeatTime's type is deduced so that the count form's (count, calIndex, line) never ties with
// (mask, repeatTime, srcRepStride).
#define ASCENDC_GUEST_RANGE_REDUCE(MaskType)                                                                      \
  template <typename T, typename R>                                                                               \
  void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, MaskType mask, \
                 const R repeatTime, const int32_t srcRepStride, ASCENDC_GUEST_LINE) {                            \
    ascendc_guest::RangeReduceCall(ascendc_guest::Reduce::kSum, dst, src, work,                                   \
                                   ascendc_guest::MaskShape<true>(mask, static_cast<uint32_t>(repeatTime)),       \
                                   srcRepStride, false, line);                                                    \
  }                                                                                                               \
  template <typename T, typename R>                                                                               \
  void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, MaskType mask, \
                 const R repeatTime, const int32_t srcRepStride, bool calIndex = false, ASCENDC_GUEST_LINE) {     \
    ascendc_guest::RangeReduceCall(ascendc_guest::Reduce::kMax, dst, src, work,                                   \
                                   ascendc_guest::MaskShape<true>(mask, static_cast<uint32_t>(repeatTime)),       \
                                   srcRepStride, calIndex, line);                                                 \
  }                                                                                                               \
  template <typename T, typename R>                                                                               \
  void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, MaskType mask, \
                 const R repeatTime, const int32_t srcRepStride, bool calIndex = false, ASCENDC_GUEST_LINE) {     \
    ascendc_guest::RangeReduceCall(ascendc_guest::Reduce::kMin, dst, src, work,                                   \
                                   ascendc_guest::MaskShape<true>(mask, static_cast<uint32_t>(repeatTime)),       \
                                   srcRepStride, calIndex, line);                                                 \
  }
ASCENDC_GUEST_RANGE_REDUCE(const int32_t)
ASCENDC_GUEST_RANGE_REDUCE(const uint64_t*)
#undef ASCENDC_GUEST_RANGE_REDUCE

// ---- the special registers: the last max/min and its index, ACC_VAL ------------------------------
// Both as the bits of a T; the index is read back with reinterpret_cast, as on the device.
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
  const uint64_t spr = static_cast<uint64_t>(ascendc_guest::vec_spr(ascendc_guest::Spr::kMaxMin));
  const uint32_t value = static_cast<uint32_t>(spr), index = static_cast<uint32_t>(spr >> 32);
  std::memcpy(&maxMinValue, &value, sizeof(T));
  if constexpr (sizeof(T) == 2) {
    const uint16_t i = static_cast<uint16_t>(index);
    std::memcpy(&maxMinIndex, &i, 2);
  } else {
    std::memcpy(&maxMinIndex, &index, sizeof(T));
  }
}
template <typename T>
void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
  GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex);
}
inline int64_t GetReduceRepeatSumSpr() { return ascendc_guest::vec_spr(ascendc_guest::Spr::kAccVal); }
template <typename T>
T GetReduceRepeatSumSpr() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetReduceRepeatSumSpr: half or float");
  const int64_t bits = GetReduceRepeatSumSpr();
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
inline int64_t GetAccVal() { return GetReduceRepeatSumSpr(); }
template <typename T>
T GetAccVal() {
  return GetReduceRepeatSumSpr<T>();
}

}  // namespace AscendC

// The CCE intrinsic reading that register: the extreme's bits low, its index high.
inline int64_t get_max_min_cnt() { return ascendc_guest::vec_spr(ascendc_guest::Spr::kMaxMin); }
