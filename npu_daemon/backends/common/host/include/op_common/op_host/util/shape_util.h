// Shape helpers of the CANN op base (opbase's op_common/op_host/util/shape_util.h): an axis within
// [-rank, rank - 1] (only 0 for a scalar), and the unknown-shape markers of graph shape inference,
// an unknown rank as the single dim -2 and an unknown dim as -1.
#pragma once
#include <cstdint>
#include "op_common/log/log.h"

namespace Ops {
namespace Base {
constexpr int64_t UNKNOWN_RANK_DIM_VALUE = -2;
constexpr int64_t UNKNOWN_DIM_VALUE = -1;

template <typename T1, typename T2>
bool CheckAxisBounds(const T1 dimNum, const T2 axis) {
  if (dimNum == 0) return axis == 0;
  const int64_t rank = static_cast<int64_t>(dimNum);
  return static_cast<int64_t>(axis) >= -rank && static_cast<int64_t>(axis) < rank;
}

inline void SetUnknownRank(gert::Shape& shape) {
  shape.SetDimNum(0);
  shape.AppendDim(UNKNOWN_RANK_DIM_VALUE);
}

inline bool IsUnknownRank(const gert::Shape& shape) {
  return shape.GetDimNum() == 1 && shape.GetDim(0) == UNKNOWN_RANK_DIM_VALUE;
}

// `rank` dims of -1; a negative rank is logged and leaves the shape as it was.
inline void SetUnknownShape(int64_t rank, gert::Shape& shape) {
  OP_CHECK_IF(rank < 0, OP_LOGE("SetUnknownShape", "the rank value is invalid"), return);
  shape.SetDimNum(static_cast<size_t>(rank));
  for (size_t i = 0; i < static_cast<size_t>(rank); ++i) shape.SetDim(i, UNKNOWN_DIM_VALUE);
}

inline bool IsUnknownShape(const gert::Shape& shape) {
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    if (shape.GetDim(i) == UNKNOWN_DIM_VALUE) return true;
  }
  return false;
}
}  // namespace Base
}  // namespace Ops
