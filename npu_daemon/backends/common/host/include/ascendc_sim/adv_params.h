// The parameter structs of the high-level APIs (SoftMaxShapeInfo, SumParams, MeanParams, the reduce
// patterns, CumSumConfig / CumSumInfo, SelectWithBytesMaskShapeInfo), defined once for the native emulation
// (adv_norm.h, adv_reduce.h, adv_math.h) and the guest engine's API (ascendc_guest/adv.h), whose host reads them from
// guest memory by address: plain 4-byte fields, so the same bytes on wasm32 and on the host.
#pragma once

#include <cstdint>

namespace AscendC {

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};
static_assert(sizeof(SoftMaxShapeInfo) == 16, "SoftMaxShapeInfo: 4 words");

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner = 0;  // padded row length in elements (32 B multiple)
  uint32_t n = 0;      // valid elements per row
};
struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};
namespace Pattern::Reduce {
struct AR {};
struct RA {};
}  // namespace Pattern::Reduce

struct CumSumConfig {
  bool isLastAxis = true;
  bool isReuseSource = false;
  bool outputLastRow = false;
};
// The library's default: last axis, source kept, last row written out (CANN 8.x).
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};
struct CumSumInfo {
  uint32_t outter = 0;
  uint32_t inner = 0;  // elements per row (32 B multiple)
};

// SelectWithBytesMask: rows of maskLastAxis mask values, of which the first srcLastAxis apply.
struct SelectWithBytesMaskShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};
// DropOut's shape: firstAxis rows of srcLastAxis values, their masks rows of maskLastAxis.
struct DropOutShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

}  // namespace AscendC
