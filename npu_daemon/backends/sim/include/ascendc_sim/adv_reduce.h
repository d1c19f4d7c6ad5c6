// High-level reductions and layout APIs (docs/ascendc.md API 7): Sum, Mean, pattern ReduceSum/Max/Min/
// Prod/Any/All/Mean (AR: reduce the last axis, RA: the first), Broadcast, CumSum.
//
// Rows are stored with their inner length padded to 32 B (the `inner` of SumParams, the padded
// last axis of ReduceSum with srcInnerPad). Accumulation is in float, rounded once to T.
#pragma once

#include "ascendc_sim/adv_params.h"
#include "ascendc_sim/adv_steps.h"
#include "ascendc_sim/math_tmp_sizes.h"
#include "ascendc_sim/reduce_tmp_sizes.h"
#include "ascendc_sim/vec_reduce.h"

namespace ascendc_sim {

// Record a multi-instruction library call: `steps` vector instructions reading src, writing dst,
// and the sharedTmpBuffer up to `tmpMax` (Scratch).
inline void AdvIssue(const char* api, int steps, uint32_t elemBytes, uint64_t elems, UbAccess dst, UbAccess src,
                     const SrcLoc& loc, const AscendC::LocalTensor<uint8_t>* tmp = nullptr,
                     uint32_t tmpMax = UINT32_MAX) {
  if (tmp)
    AdvSteps(api, steps, elemBytes, elems, {src, Scratch(tmp, tmpMax), dst}, loc);
  else
    AdvSteps(api, steps, elemBytes, elems, {src, dst}, loc);
}

template <typename T>
void CheckElems(const char* api, const AscendC::LocalTensor<T>& t, uint64_t n, const char* what, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(n <= t.GetSize(), loc, "%s: the %s needs %llu elements, the tensor has %u", api, what,
                    static_cast<unsigned long long>(n), t.GetSize());
}

template <typename T>
void RowSums(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t outter,
             uint32_t inner, uint32_t n, bool mean, const AscendC::LocalTensor<uint8_t>* tmp, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(n <= inner && inner * sizeof(T) % 32 == 0, loc,
                    "%s: n %u must be <= inner %u, and inner a 32 B multiple", api, n, inner);
  CheckElems(api, src, static_cast<uint64_t>(outter) * inner, "source", loc);
  CheckElems(api, dst, outter, "destination", loc);
  AdvIssue(api, 3, sizeof(T), static_cast<uint64_t>(outter) * inner,
           {dst.UbAddr(), static_cast<uint32_t>(outter * sizeof(T)), true},
           {src.UbAddr(), static_cast<uint32_t>(outter * inner * sizeof(T)), false}, loc, tmp);
  const T* x = ascendc_sim::HostData(src);
  T* d = ascendc_sim::HostData(dst);
  for (uint32_t r = 0; r < outter; ++r) {
    float acc = 0;
    for (uint32_t i = 0; i < n; ++i) acc += static_cast<float>(x[static_cast<uint64_t>(r) * inner + i]);
    d[r] = static_cast<T>(mean ? acc / static_cast<float>(n) : acc);
  }
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::RowSums("Sum", dst, src, p.outter, p.inner, p.n, false, &sharedTmpBuffer, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SumParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::RowSums("Sum", dst, src, p.outter, p.inner, p.n, false, nullptr, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::RowSums("Mean", dst, src, p.outter, p.inner, p.n, true, &sharedTmpBuffer, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MeanParams& p,
                            ASCENDC_SIM_LOC) {
  ascendc_sim::RowSums("Mean", dst, src, p.outter, p.inner, p.n, true, nullptr, loc);
}

}  // namespace AscendC

namespace ascendc_sim {

// srcShape = {first, last}; with innerPad the last axis is stored padded to 32 B. With isReuseSource
// (`reuse`) the A2's library works in the source where it would work in the buffer
// (reduce_common_util_v220_impl.h: its per-row and halving passes write their partial results
// over the source's rows), so its sizes are the helper's for the flag and the source is left lent.
template <typename T, typename P>
void PatternReduce(const char* api, Red red, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const AscendC::LocalTensor<uint8_t>* tmp, const uint32_t srcShape[], bool innerPad, bool reuse,
                   const SrcLoc& loc, bool mean = false) {
  const uint32_t rows = srcShape[0], cols = srcShape[1];
  const uint32_t align = 32 / sizeof(T);
  const uint32_t pitch = innerPad ? (cols + align - 1) / align * align : cols;
  constexpr bool ar = std::is_same_v<P, AscendC::Pattern::Reduce::AR>;
  const uint32_t outs = ar ? rows : cols;
  CheckElems(api, src, static_cast<uint64_t>(rows) * pitch, "source", loc);
  CheckElems(api, dst, outs, "destination", loc);
  // The helper's one size for the flag (reduce_tmp_sizes.h: its maximum and minimum are equal):
  // under it the library works past the buffer, past it the buffer is the kernel's own.
  // The source is lent where the flag spares the buffer: it then holds the library's partial results.
  const uint32_t need = reduce_tmp::MaxBytes(api, ar, rows, cols, sizeof(T), reuse);
  const bool lent = reuse && need < reduce_tmp::MaxBytes(api, ar, rows, cols, sizeof(T), false);
  CheckTmpMin(api, tmp, need, reduce_tmp::Helper(api), loc);
  AdvIssue(api, 3, sizeof(T), static_cast<uint64_t>(rows) * pitch,
           {dst.UbAddr(), static_cast<uint32_t>(outs * sizeof(T)), true},
           {src.UbAddr(), static_cast<uint32_t>(rows * pitch * sizeof(T)), lent}, loc, tmp, need);
  const T* x = ascendc_sim::HostData(src);
  T* d = ascendc_sim::HostData(dst);
  for (uint32_t o = 0; o < outs; ++o) {
    Acc acc;
    const uint32_t n = ar ? cols : rows;
    for (uint32_t i = 0; i < n; ++i) acc.Add(red, static_cast<float>(ar ? x[o * pitch + i] : x[i * pitch + o]), i);
    d[o] = static_cast<T>(mean ? acc.value / static_cast<float>(n) : acc.value);
  }
  LeaveSourceWorked(lent, dst, src, static_cast<uint64_t>(rows) * pitch);
}

}  // namespace ascendc_sim

namespace AscendC {

// Each with the caller's sharedTmpBuffer, or with the temporary space the library takes itself.
// ReduceAny / ReduceAll are the logical or / and of sources the documentation restricts to 0 and
// 1, so the largest / smallest value; ReduceMean divides the float sum by the reduced length.
#define ASCENDC_SIM_PATTERN_REDUCE(NAME, RED, MEAN)                                                                \
  template <typename T, typename pattern, bool isReuseSource = false>                                              \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],              \
                              bool srcInnerPad, ASCENDC_SIM_LOC) {                                                 \
    ascendc_sim::PatternReduce<T, pattern>(#NAME, ascendc_sim::Red::RED, dst, src, &sharedTmpBuffer, srcShape,     \
                                           srcInnerPad, isReuseSource, loc, MEAN);                                 \
  }                                                                                                                \
  template <typename T, typename pattern, bool isReuseSource = false>                                              \
  __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[],     \
                              bool srcInnerPad, ASCENDC_SIM_LOC) {                                                 \
    ascendc_sim::PatternReduce<T, pattern>(#NAME, ascendc_sim::Red::RED, dst, src, nullptr, srcShape, srcInnerPad, \
                                           isReuseSource, loc, MEAN);                                              \
  }
ASCENDC_SIM_PATTERN_REDUCE(ReduceSum, kSum, false)
ASCENDC_SIM_PATTERN_REDUCE(ReduceMax, kMax, false)
ASCENDC_SIM_PATTERN_REDUCE(ReduceMin, kMin, false)
ASCENDC_SIM_PATTERN_REDUCE(ReduceProd, kProd, false)
ASCENDC_SIM_PATTERN_REDUCE(ReduceAny, kMax, false)
ASCENDC_SIM_PATTERN_REDUCE(ReduceAll, kMin, false)
ASCENDC_SIM_PATTERN_REDUCE(ReduceMean, kSum, true)
#undef ASCENDC_SIM_PATTERN_REDUCE

// Broadcast<T, dim, axis>: dim 1 ([1] -> [n]) or 2 (axis 0: [1, n] -> [m, n]; axis 1: [m, 1] -> [m, n]).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], ASCENDC_SIM_LOC) {
  static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2");
  static_assert(axis == 0 || axis == 1, "Broadcast axis is 0 or 1");
  const uint32_t m = dim == 2 ? dstShape[0] : 1, n = dstShape[dim - 1];
  const uint64_t srcElems = dim == 1 ? 1 : static_cast<uint64_t>(srcShape[0]) * srcShape[1];
  // As documented the device checks no tensor length: past a tensor it runs on inside the UB (the
  // UB's end is checked where the accesses issue), a warning here as for the basic API.
  ASCENDC_SIM_WARN_UNLESS(static_cast<uint64_t>(m) * n <= dst.GetSize(), loc,
                          "Broadcast: the destination needs %llu elements, the tensor has %u",
                          static_cast<unsigned long long>(m) * n, dst.GetSize());
  ASCENDC_SIM_WARN_UNLESS(srcElems <= src.GetSize(), loc,
                          "Broadcast: the source needs %llu elements, the tensor has %u",
                          static_cast<unsigned long long>(srcElems), src.GetSize());
  ascendc_sim::AdvIssue("Broadcast", 2, sizeof(T), static_cast<uint64_t>(m) * n,
                        {dst.UbAddr(), static_cast<uint32_t>(m * n * sizeof(T)), true},
                        {src.UbAddr(), static_cast<uint32_t>(srcElems * sizeof(T)), false}, loc);
  const T* x = ascendc_sim::HostData(src);
  T* d = ascendc_sim::HostData(dst);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) d[static_cast<uint64_t>(i) * n + j] = dim == 1 ? x[0] : axis == 0 ? x[j] : x[i];
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 ASCENDC_SIM_LOC) {
  (void)sharedTmpBuffer;
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}
// BroadCast: the spelling of earlier CANN releases, same semantics.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], ASCENDC_SIM_LOC) {
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 ASCENDC_SIM_LOC) {
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, sharedTmpBuffer, loc);
}

}  // namespace AscendC

namespace ascendc_sim {

// CumSum over the last axis (each row) or the first axis (down the columns); lastRow receives the
// last row of the result when config.outputLastRow is set. `tmp` the sharedTmpBuffer, or none (the
// framework's).
template <typename T, const AscendC::CumSumConfig& config>
void CumSumImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& lastRow,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                const AscendC::CumSumInfo& info, const SrcLoc& loc) {
  const uint64_t total = static_cast<uint64_t>(info.outter) * info.inner;
  CheckElems("CumSum", src, total, "source", loc);
  CheckElems("CumSum", dst, total, "destination", loc);
  // Under GetCumSumMaxMinTmpSize's minimum the library steps through no rows at all (its step is
  // the buffer's whole minima times 16 rows) or, down the first axis, works past the buffer.
  const TmpRange range = CumSumTmpRange(info.outter, info.inner, sizeof(T), config.isLastAxis);
  CheckTmpMin("CumSum", tmp, range.minValue, "GetCumSumMaxMinTmpSize", loc);
  AdvIssue("CumSum", 4, sizeof(T), total, {dst.UbAddr(), static_cast<uint32_t>(total * sizeof(T)), true},
           {src.UbAddr(), static_cast<uint32_t>(total * sizeof(T)), false}, loc, tmp, range.maxValue);
  const T* x = HostData(src);
  T* d = HostData(dst);
  if (config.isLastAxis) {
    for (uint32_t r = 0; r < info.outter; ++r) {
      float acc = 0;
      for (uint32_t c = 0; c < info.inner; ++c)
        d[r * info.inner + c] = static_cast<T>(acc += static_cast<float>(x[r * info.inner + c]));
    }
  } else {
    for (uint32_t c = 0; c < info.inner; ++c) {
      float acc = 0;
      for (uint32_t r = 0; r < info.outter; ++r)
        d[r * info.inner + c] = static_cast<T>(acc += static_cast<float>(x[r * info.inner + c]));
    }
  }
  if (config.outputLastRow) {
    CheckElems("CumSum", lastRow, info.inner, "last row", loc);
    std::memcpy(HostData(lastRow), d + static_cast<uint64_t>(info.outter - 1) * info.inner, info.inner * sizeof(T));
  }
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& info, ASCENDC_SIM_LOC) {
  ascendc_sim::CumSumImpl<T, config>(dst, lastRow, src, &sharedTmpBuffer, info, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
                              const CumSumInfo& info, ASCENDC_SIM_LOC) {
  ascendc_sim::CumSumImpl<T, config>(dst, lastRow, src, nullptr, info, loc);
}

}  // namespace AscendC
