#ifndef HARD_SWISH_TILING_H
#define HARD_SWISH_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HardSwishTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // blocks that take one alignment unit more
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former block
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining block
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HardSwish, HardSwishTilingData)
}  // namespace optiling

#endif  // HARD_SWISH_TILING_H
