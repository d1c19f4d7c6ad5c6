#ifndef REDUCE_MEAN_MID_TILING_H
#define REDUCE_MEAN_MID_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceMeanMidTilingData)
TILING_DATA_FIELD_DEF(uint32_t, outer);        // A: independent slices
TILING_DATA_FIELD_DEF(uint32_t, reduceLen);    // R: the axis reduced
TILING_DATA_FIELD_DEF(uint32_t, inner);        // B: contiguous row length
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one slice more
TILING_DATA_FIELD_DEF(uint32_t, formerSlices);
TILING_DATA_FIELD_DEF(uint32_t, tailSlices);
TILING_DATA_FIELD_DEF(uint32_t, chunkRows);    // rows of R loaded per tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceMeanMid, ReduceMeanMidTilingData)
}  // namespace optiling

#endif  // REDUCE_MEAN_MID_TILING_H
