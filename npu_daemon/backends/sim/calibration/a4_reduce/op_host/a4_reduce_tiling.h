#ifndef A4_REDUCE_TILING_H
#define A4_REDUCE_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(A4ReduceTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);     // float elements to sum
TILING_DATA_FIELD_DEF(uint32_t, wholeOnly);  // 1: WholeReduceSum levels only
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(A4Reduce, A4ReduceTilingData)
}  // namespace optiling

#endif  // A4_REDUCE_TILING_H
