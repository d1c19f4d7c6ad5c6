// Host tiling of the pattern reduce APIs (ReduceSum/Mean/Max/Min/Prod/Any/All over a [first, last]
// shape): the temporary-buffer sizes asc-devkit's impl/adv_api/tiling/reduce/reduce_tiling.cpp
// computes for the A2 (not regbase), with its parameter checks.
//
// A failed check is logged and the library goes on computing (its host assert only returns from
// the check), except a dtype the API does not take, which leaves the sizes as they were. One case
// has no defined result: a shape of fewer than two dims, of which the library still reads dims 0
// and 1. The words it reads past the dims vector are the allocator's, which glibc hands out zeroed
// (a tcache chunk's key is cleared on allocation), so a missing dim reads as 0 here, with a warning.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "ascendc_sim/adv_norm_params.h"
#include "ascendc_sim/host_context.h"
#include "ascendc_sim/reduce_tmp_sizes.h"

namespace AscendC {

// ReducePattern: adv_norm_params.h, which the kernel side shares.

namespace sim_reduce {

inline uint32_t TypeSize(ge::DataType t) {
  return t == ge::DT_FLOAT || t == ge::DT_INT32 ? 4 : t == ge::DT_FLOAT16 ? 2 : 1;
}
inline void Log(const char* api, const char* what) { std::fprintf(stderr, "[%s] %s\n", api, what); }

// The library's CheckParams, then [first, last].
inline void Dims(const char* api, const ge::Shape& s, ReducePattern pattern, bool innerPad, uint32_t& first,
                 uint32_t& last) {
  if (s.GetDimNum() != 2) Log(api, "srcShape dims must be 2.");
  if (s.GetDimNum() < 2)
    Log(api, "warning (simulator): the library reads the dims the shape lacks past its end; they read as 0");
  first = s.GetDimNum() > 0 ? static_cast<uint32_t>(s.GetDim(0)) : 0;
  last = s.GetDimNum() > 1 ? static_cast<uint32_t>(s.GetDim(1)) : 0;
  if (!innerPad) Log(api, "isSrcInnerPad must be true on this platform.");
  if (pattern != ReducePattern::AR && pattern != ReducePattern::RA)
    Log(api, "Currently only support AR and RA pattern.");
  if (first == 0 || last == 0) Log(api, "both first and last axis must be greater than 0.");
}

// ReduceMax / Min / Any / All (float), Sum / Mean, Any / All of uint8: reduce_tmp_sizes.h's
// numbers, after the library's checks.
inline void Common(const char* api, const ge::Shape& s, ge::DataType t, ReducePattern p, bool pad, bool reuse,
                   uint32_t& maxValue, uint32_t& minValue) {
  uint32_t first, last;
  Dims(api, s, p, pad, first, last);
  maxValue = minValue = ascendc_sim::reduce_tmp::Common(p == ReducePattern::AR, first, last, TypeSize(t), reuse);
}
inline void SumMean(const char* api, const ge::Shape& s, ReducePattern p, bool pad, bool reuse, uint32_t& maxValue,
                    uint32_t& minValue) {
  uint32_t first, last;
  Dims(api, s, p, pad, first, last);
  maxValue = minValue = ascendc_sim::reduce_tmp::SumMean(p == ReducePattern::AR, first, last, reuse);
}
inline void AnyAllU8(const char* api, const ge::Shape& s, ReducePattern p, bool pad, bool reuse, uint32_t& maxValue,
                     uint32_t& minValue) {
  uint32_t first, last;
  Dims(api, s, p, pad, first, last);
  maxValue = minValue = ascendc_sim::reduce_tmp::AnyAllU8(p == ReducePattern::AR, first, last, reuse);
}

}  // namespace sim_reduce

inline void GetReduceMaxMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                      bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT && dataType != ge::DT_FLOAT16)
    return sim_reduce::Log("ReduceMax", "it only supports float and half type on this platform.");
  sim_reduce::Common("ReduceMax", srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                      bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT && dataType != ge::DT_FLOAT16)
    return sim_reduce::Log("ReduceMin", "it only supports float and half type on this platform.");
  sim_reduce::Common("ReduceMin", srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceAnyMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                      bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType == ge::DT_UINT8)
    return sim_reduce::AnyAllU8("ReduceAny", srcShape, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
  if (dataType != ge::DT_FLOAT)
    return sim_reduce::Log("ReduceAny", "it only supports float and uint8_t type on this platform.");
  sim_reduce::Common("ReduceAny", srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceAllMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                      bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType == ge::DT_UINT8)
    return sim_reduce::AnyAllU8("ReduceAll", srcShape, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
  if (dataType != ge::DT_FLOAT)
    return sim_reduce::Log("ReduceAll", "it only supports float and uint8 type on this platform.");
  sim_reduce::Common("ReduceAll", srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceSumMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                      bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT) return sim_reduce::Log("ReduceSum", "it only supports float type on this platform.");
  sim_reduce::SumMean("ReduceSum", srcShape, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
}
inline void GetReduceMeanMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                       bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT) return sim_reduce::Log("ReduceMean", "it only supports float type on this platform.");
  sim_reduce::SumMean("ReduceMean", srcShape, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);
}
// ReduceProd (float): AR keeps a block-aligned split, a block per row and one repeat.
inline void GetReduceProdMaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern,
                                       bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT) return sim_reduce::Log("ReduceProd", "it only supports float type on this platform.");
  uint32_t first, last;
  sim_reduce::Dims("ReduceProd", srcShape, pattern, isSrcInnerPad, first, last);
  maxValue = minValue = ascendc_sim::reduce_tmp::Prod(pattern == ReducePattern::AR, first, last, isReuseSource);
}

}  // namespace AscendC
