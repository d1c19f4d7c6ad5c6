#ifndef MINIMUM_TILING_H
#define MINIMUM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MinimumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // blocks that take one alignment unit more
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per former block
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining block
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Minimum, MinimumTilingData)
}  // namespace optiling

#endif  // MINIMUM_TILING_H
