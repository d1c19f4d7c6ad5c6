// Reductions: WholeReduce* (one value per repeat), BlockReduce* (one per 32 B block), PairReduceSum,
// RepeatReduceSum, and the whole-range ReduceSum/ReduceMax/ReduceMin with an optional index.
//
// Sums accumulate in float and round once to T; max/min keep the first lane on ties. Indices are
// lane positions stored as the integer bits of an element of T's width (uint16 for half, uint32
// for float), as the hardware writes them. Output strides are in units of one repeat's output.
#pragma once

#include "ascendc_sim/vec_elementwise.h"

namespace AscendC {
enum ReduceOrder { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
}  // namespace AscendC

namespace ascendc_sim {

enum class Red : uint8_t { kSum, kMax, kMin, kProd };  // kProd: the high-level ReduceProd only

template <typename T>
T IndexBits(uint32_t index) {
  T v;
  if constexpr (sizeof(T) == 2) {
    const uint16_t i = static_cast<uint16_t>(index);
    std::memcpy(&v, &i, 2);
  } else {
    std::memcpy(&v, &index, sizeof(T));
  }
  return v;
}

// Running sum (product), or max/min with the lane index of its first occurrence.
struct Acc {
  float value = 0;
  uint32_t index = 0;
  bool any = false;
  void Add(Red red, float v, uint32_t i) {
    if (!any)
      value = v, index = i, any = true;
    else if (red == Red::kSum)
      value += v;
    else if (red == Red::kProd)
      value *= v;
    else if (red == Red::kMax ? v > value : v < value)
      value = v, index = i;
  }
};

template <typename T>
void ReduceRepeat(const Lanes& l, uint32_t r, uint32_t firstLane, uint32_t lanes, const T* x, Stride s, Red red,
                  Acc& acc) {
  for (uint32_t e = firstLane; e < firstLane + lanes && e < l.perRepeat; ++e)
    if (l.Active(r, e)) acc.Add(red, static_cast<float>(x[l.Offset(r, e, s)]), e);
}

// The max/min special register GetReduceMaxMinCount reads: the extreme over every repeat and the
// element index of its first occurrence, counted across repeats (repeat * lanes per repeat + lane).
template <typename T>
void SetMaxMinSpr(const Acc& total) {
  const T value = static_cast<T>(total.value);
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  CurrentCore().Registers().maxMinSpr = static_cast<uint64_t>(total.index) << 32 | bits;
}

// Results past the destination tensor but inside the UB: the device writes them on (a warning).
template <typename T>
void CheckReduceDestination(const char* api, const AscendC::LocalTensor<T>& dst, uint64_t dstElems, const SrcLoc& loc) {
  if (dstElems <= dst.GetSize()) return;
  ASCENDC_SIM_CHECK(dst.UbAddr() + dstElems * sizeof(T) <= CurrentCore().Local().Size(LocalBuf::kUB), loc,
                    "%s: writes %llu elements, the destination has %u, past the end of the UB", api,
                    static_cast<unsigned long long>(dstElems), dst.GetSize());
  DeviceTolerated(loc, "%s: writes %llu elements, the destination has %u", api,
                  static_cast<unsigned long long>(dstElems), dst.GetSize());
}

// The start alignment of a reduction's results (asc-devkit ReduceRepeat, table 3, which ReduceSum's
// constraints cite): the value's size, 4 B where an index is among them.
template <typename T>
constexpr uint32_t ResultAlign(Red red, int order) {
  return red == Red::kSum || order == AscendC::ORDER_ONLY_VALUE ? sizeof(T) : 4;
}

template <typename T>
void WholeReduce(const char* api, Red red, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const Lanes& l, int32_t dstRepStride, Stride ss, int order, const SrcLoc& loc) {
  ss = Blocks<T>(ss);
  // One result per repeat of `unit` bytes: [value, index] of T, the value, or the index alone as a
  // uint32 (also for half: the ReduceRepeat page's table of dstRepStride units).
  const bool onlyIndex = red != Red::kSum && order == AscendC::ORDER_ONLY_INDEX;
  const uint32_t outs = red == Red::kSum || order >= AscendC::ORDER_ONLY_VALUE ? 1 : 2;
  const uint32_t unit = onlyIndex ? 4 : outs * sizeof(T);
  const uint64_t dstBytes = l.repeats ? static_cast<uint64_t>(l.repeats - 1) * dstRepStride * unit + unit : 0;
  CheckReduceDestination(api, dst, (dstBytes + sizeof(T) - 1) / sizeof(T), loc);
  IssueVector(Op::kVecReduce, api, l, {{src.UbAddr(), src.GetSize(), sizeof(T), ss, false}}, sizeof(T), loc,
              {{dst.UbAddr(), static_cast<uint32_t>(dstBytes), true, ResultAlign<T>(red, order)}});
  T* d = ascendc_sim::HostData(dst);
  const T* x = ascendc_sim::HostData(src);
  Acc total;
  for (uint32_t r = 0; r < l.repeats; ++r) {
    Acc acc;
    ReduceRepeat(l, r, 0, l.perRepeat, x, ss, red, acc);
    if (acc.any) total.Add(red, acc.value, r * l.perRepeat + acc.index);
    T* o = d + static_cast<uint64_t>(r) * dstRepStride * outs;
    const T value = static_cast<T>(acc.value), index = IndexBits<T>(acc.index);
    if (red == Red::kSum || order == AscendC::ORDER_ONLY_VALUE)
      o[0] = value;
    else if (onlyIndex)
      std::memcpy(reinterpret_cast<uint8_t*>(d) + static_cast<uint64_t>(r) * dstRepStride * 4, &acc.index, 4);
    else if (order == AscendC::ORDER_VALUE_INDEX)
      o[0] = value, o[1] = index;
    else
      o[0] = index, o[1] = value;
  }
  if (red != Red::kSum) SetMaxMinSpr<T>(total);
}

// Reduce each 32 B block (BlockReduce: width = lanes per block) or each pair (PairReduce: width 2).
template <typename T>
void GroupReduce(const char* api, Red red, uint32_t width, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const Lanes& l, int32_t dstRepStride, Stride ss,
                 const SrcLoc& loc) {
  ss = Blocks<T>(ss);
  const uint32_t outs = l.perRepeat / width;
  const uint64_t dstElems = l.repeats ? static_cast<uint64_t>(l.repeats - 1) * dstRepStride * outs + outs : 0;
  CheckReduceDestination(api, dst, dstElems, loc);
  IssueVector(Op::kVecReduce, api, l, {{src.UbAddr(), src.GetSize(), sizeof(T), ss, false}}, sizeof(T), loc,
              {{dst.UbAddr(), static_cast<uint32_t>(dstElems * sizeof(T)), true}});
  T* d = ascendc_sim::HostData(dst);
  const T* x = ascendc_sim::HostData(src);
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t g = 0; g < outs; ++g) {
      Acc acc;
      ReduceRepeat(l, r, g * width, width, x, ss, red, acc);
      if (acc.any) d[static_cast<uint64_t>(r) * dstRepStride * outs + g] = static_cast<T>(acc.value);
    }
}

// Whole-range reduction to dst[0] (and the index to dst[1]); `work` is the space the library keeps
// its first level in: over more than one repeat, each repeat's sum, or its extreme and the lane
// index, one after another from work[0], then reduced again into dst. `firstLevelInWork` is false
// for the A2's count form of ReduceSum, one vcadd summing into ACC_VAL that leaves work alone.
// The device writes that first level whatever the kernel kept in work and wherever the tensor
// ends, so the emulation writes it too, over its whole extent (inside the UB): a work tensor is
// never a place the kernel's own values survive the call, nor is its write cut to what the
// kernel allotted.
template <typename T>
void RangeReduce(const char* api, Red red, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<T>& work, const Lanes& l, Stride ss, bool calIndex, const SrcLoc& loc,
                 bool firstLevelInWork = true) {
  ss = Blocks<T>(ss);
  const uint32_t outs = calIndex ? 2 : 1;
  ASCENDC_SIM_CHECK(dst.GetSize() >= outs, loc, "%s: the destination needs %u elements", api, outs);
  const bool writesWork = firstLevelInWork && l.repeats > 1;
  const uint32_t perRepeat = red == Red::kSum ? 1 : 2;  // a sum, or an extreme and its lane
  // What the device writes (the documented minimum of a sum's work tensor) is at least accessed,
  // past a tensor allotted less; what the access held before stays for one allotted enough.
  const uint32_t written = writesWork ? (l.repeats * perRepeat * sizeof(T) + 31) / 32 * 32 : 0;
  const uint32_t workBytes =
      std::max(written, std::min<uint32_t>(work.GetLength(), (l.repeats * 2 * sizeof(T) + 31) / 32 * 32));
  IssueVector(Op::kVecReduce, api, l, {{src.UbAddr(), src.GetSize(), sizeof(T), ss, false}}, sizeof(T), loc,
              {{work.UbAddr(), workBytes, true},
               {dst.UbAddr(), static_cast<uint32_t>(outs * sizeof(T)), true,
                ResultAlign<T>(red, calIndex ? AscendC::ORDER_VALUE_INDEX : AscendC::ORDER_ONLY_VALUE)}});
  const T* x = ascendc_sim::HostData(src);
  Acc total;
  std::vector<Acc> level(writesWork ? l.repeats : 0);
  for (uint32_t r = 0; r < l.repeats; ++r) {
    Acc acc;
    ReduceRepeat(l, r, 0, l.perRepeat, x, ss, red, acc);
    if (acc.any) total.Add(red, acc.value, r * l.perRepeat + acc.index);
    if (writesWork) level[r] = acc;
  }
  // Written after every read of src, as the device's second level reads work after its first:
  // a work tensor over src or dst (the corpus's in-place `ReduceSum(x, x, x, n)`) ends as there.
  T* w = ascendc_sim::HostData(work);
  for (uint32_t r = 0; r < level.size(); ++r) {
    w[r * perRepeat] = static_cast<T>(level[r].value);
    if (perRepeat == 2) w[r * perRepeat + 1] = IndexBits<T>(level[r].index);
  }
  T* d = ascendc_sim::HostData(dst);
  d[0] = static_cast<T>(total.value);
  if (calIndex) d[1] = IndexBits<T>(total.index);
  if (red != Red::kSum) {
    SetMaxMinSpr<T>(total);
  } else {  // the library's ReduceSum reads its result back from ACC_VAL (dav_c220 ReduceSumImpl)
    uint64_t bits = 0;
    std::memcpy(&bits, &d[0], sizeof(T));
    CurrentCore().Registers().accVal = bits;
  }
}

}  // namespace ascendc_sim

namespace AscendC {

// ---- WholeReduceSum / RepeatReduceSum / WholeReduceMax / WholeReduceMin ---------------------------
template <typename T, bool isSetMask = true>
__aicore__ void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                               const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                               const int32_t srcRepStride, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)
                                   : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::WholeReduce("WholeReduceSum", ascendc_sim::Red::kSum, dst, src, l, dstRepStride,
                           {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, 0, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                               const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                               const int32_t srcRepStride, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l =
      isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc) : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::WholeReduce("WholeReduceSum", ascendc_sim::Red::kSum, dst, src, l, dstRepStride,
                           {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, 0, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                const int32_t dstRepStride, const int32_t srcRepStride, ASCENDC_SIM_LOC) {
  (void)dstBlkStride;
  ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)
                                   : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  ascendc_sim::WholeReduce("RepeatReduceSum", ascendc_sim::Red::kSum, dst, src, l, dstRepStride,
                           {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, 0, loc);
}

#define ASCENDC_SIM_WHOLE_MAXMIN(NAME, RED)                                                                           \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,                      \
                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,              \
                       const int32_t srcRepStride, ReduceOrder order = ORDER_VALUE_INDEX, ASCENDC_SIM_LOC) {          \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)                     \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::WholeReduce(#NAME, RED, dst, src, l, dstRepStride,                                                   \
                             {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, order, loc); \
  }                                                                                                                   \
  template <typename T, bool isSetMask = true>                                                                        \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                   \
                       const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,              \
                       const int32_t srcRepStride, ReduceOrder order = ORDER_VALUE_INDEX, ASCENDC_SIM_LOC) {          \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                               \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                            \
    ascendc_sim::WholeReduce(#NAME, RED, dst, src, l, dstRepStride,                                                   \
                             {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, order, loc); \
  }
ASCENDC_SIM_WHOLE_MAXMIN(WholeReduceMax, ascendc_sim::Red::kMax)
ASCENDC_SIM_WHOLE_MAXMIN(WholeReduceMin, ascendc_sim::Red::kMin)

// ---- BlockReduceSum/Max/Min (8 outputs per repeat), PairReduceSum (half a repeat) -----------------
#define ASCENDC_SIM_GROUP_REDUCE(NAME, RED, WIDTH)                                                             \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,         \
                       const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                       const int32_t srcRepStride, ASCENDC_SIM_LOC) {                                          \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc)              \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                     \
    ascendc_sim::GroupReduce(#NAME, RED, WIDTH, dst, src, l, dstRepStride,                                     \
                             {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, loc); \
  }                                                                                                            \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,         \
                       const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,          \
                       const int32_t srcRepStride, ASCENDC_SIM_LOC) {                                          \
    ascendc_sim::Lanes l = isSetMask ? ascendc_sim::MaskLanes<T>(mask, repeatTime, loc)                        \
                                     : ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);                     \
    ascendc_sim::GroupReduce(#NAME, RED, WIDTH, dst, src, l, dstRepStride,                                     \
                             {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, loc); \
  }
ASCENDC_SIM_GROUP_REDUCE(BlockReduceSum, ascendc_sim::Red::kSum, 32 / sizeof(T))
ASCENDC_SIM_GROUP_REDUCE(BlockReduceMax, ascendc_sim::Red::kMax, 32 / sizeof(T))
ASCENDC_SIM_GROUP_REDUCE(BlockReduceMin, ascendc_sim::Red::kMin, 32 / sizeof(T))
ASCENDC_SIM_GROUP_REDUCE(PairReduceSum, ascendc_sim::Red::kSum, 2)

// ---- ReduceSum / ReduceMax / ReduceMin over a whole range -----------------------------------------
// isSetMask = false: `count` is ignored and the mask registers say which lanes (asc-devkit ReduceSum:
// set them with SetVectorMask first): in counter mode the low register's count, else one repeat of
// its lane bits.
template <typename T, bool isSetMask = true>
__aicore__ void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                          const int32_t count, ASCENDC_SIM_LOC) {
  const ascendc_sim::CoreRegisters& reg = ascendc_sim::CurrentCore().Registers();
  const ascendc_sim::Lanes l = isSetMask         ? ascendc_sim::CountLanes<T>(count)
                               : reg.maskCounter ? ascendc_sim::CountLanes<T>(reg.mask[0])
                                                 : ascendc_sim::RegisterMaskLanes<T>(1, loc);
  ascendc_sim::RangeReduce("ReduceSum", ascendc_sim::Red::kSum, dst, src, work, l, {}, false, loc, false);
  // On the A2 the count form is one vcadd whose sum the library reads from ACC_VAL after a V -> S
  // sync and stores with the scalar unit, then syncs S -> V and S -> MTE3 (dav_c220 ReduceSumImpl):
  // a copy out of dst right after it is ordered.
  ascendc_sim::CurrentCore().LibraryVectorToScalar();
}
template <typename T>
__aicore__ void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                          const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc);
  ascendc_sim::RangeReduce("ReduceSum", ascendc_sim::Red::kSum, dst, src, work, l,
                           {1, static_cast<uint32_t>(srcRepStride)}, false, loc);
}
#define ASCENDC_SIM_RANGE_MAXMIN(NAME, RED)                                                                           \
  template <typename T>                                                                                               \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,              \
                       const int32_t count, bool calIndex = false, ASCENDC_SIM_LOC) {                                 \
    ascendc_sim::RangeReduce(#NAME, RED, dst, src, work, ascendc_sim::CountLanes<T>(count), {}, calIndex, loc);       \
  }                                                                                                                   \
  template <typename T>                                                                                               \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,              \
                       const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,                      \
                       bool calIndex = false, ASCENDC_SIM_LOC) {                                                      \
    ascendc_sim::Lanes l = ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc);                                \
    ascendc_sim::RangeReduce(#NAME, RED, dst, src, work, l, {1, static_cast<uint32_t>(srcRepStride)}, calIndex, loc); \
  }
template <typename T>
__aicore__ void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                          const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
                          ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = ascendc_sim::MaskLanes<T>(mask, repeatTime, loc);
  ascendc_sim::RangeReduce("ReduceSum", ascendc_sim::Red::kSum, dst, src, work, l,
                           {1, static_cast<uint32_t>(srcRepStride)}, false, loc);
}
#define ASCENDC_SIM_RANGE_MAXMIN_BITS(NAME, RED)                                                                      \
  template <typename T>                                                                                               \
  __aicore__ void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,              \
                       const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,                   \
                       bool calIndex = false, ASCENDC_SIM_LOC) {                                                      \
    ascendc_sim::Lanes l = ascendc_sim::MaskLanes<T>(mask, repeatTime, loc);                                          \
    ascendc_sim::RangeReduce(#NAME, RED, dst, src, work, l, {1, static_cast<uint32_t>(srcRepStride)}, calIndex, loc); \
  }
ASCENDC_SIM_RANGE_MAXMIN_BITS(ReduceMax, ascendc_sim::Red::kMax)
ASCENDC_SIM_RANGE_MAXMIN_BITS(ReduceMin, ascendc_sim::Red::kMin)
#undef ASCENDC_SIM_RANGE_MAXMIN_BITS
ASCENDC_SIM_RANGE_MAXMIN(ReduceMax, ascendc_sim::Red::kMax)
ASCENDC_SIM_RANGE_MAXMIN(ReduceMin, ascendc_sim::Red::kMin)

// The extreme of the last WholeReduceMax/Min (ReduceRepeat) or ReduceMax/Min and its element index,
// both as the bits of a T (the index is read back with reinterpret_cast), from the register the
// reduction wrote. A scalar read: the kernel orders it after the reduction with a V -> S flag.
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
  const uint64_t spr = ascendc_sim::CurrentCore().Registers().maxMinSpr;
  const uint32_t value = static_cast<uint32_t>(spr), index = static_cast<uint32_t>(spr >> 32);
  std::memcpy(&maxMinValue, &value, sizeof(T));
  maxMinIndex = ascendc_sim::IndexBits<T>(index);
}
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
  GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex);
}
// ACC_VAL, where ReduceSum leaves its result: as raw bits, or as the value (half / float).
__aicore__ inline int64_t GetReduceRepeatSumSpr() {
  return static_cast<int64_t>(ascendc_sim::CurrentCore().Registers().accVal);
}
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetReduceRepeatSumSpr: half or float");
  const uint64_t bits = ascendc_sim::CurrentCore().Registers().accVal;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
__aicore__ inline int64_t GetAccVal() { return GetReduceRepeatSumSpr(); }
template <typename T>
__aicore__ inline T GetAccVal() {
  return GetReduceRepeatSumSpr<T>();
}

}  // namespace AscendC
