#ifndef TOP_K_TILING_H
#define TOP_K_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopKTilingData)
TILING_DATA_FIELD_DEF(uint32_t, cols);        // row length (last dim)
TILING_DATA_FIELD_DEF(uint32_t, k);           // attr
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);  // rows per former block
TILING_DATA_FIELD_DEF(uint32_t, tailRows);    // rows per remaining block
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile); // rows selected side by side per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TopK, TopKTilingData)
}  // namespace optiling

#endif  // TOP_K_TILING_H
