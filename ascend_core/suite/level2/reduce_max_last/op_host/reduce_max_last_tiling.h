#ifndef REDUCE_MAX_LAST_TILING_H
#define REDUCE_MAX_LAST_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceMaxLastTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of every axis but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);         // the reduced axis
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, outChunk);     // results gathered per output copy
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceMaxLast, ReduceMaxLastTilingData)
}  // namespace optiling

#endif  // REDUCE_MAX_LAST_TILING_H
