#ifndef BROADCAST_ADD_COL_TILING_H
#define BROADCAST_ADD_COL_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BroadcastAddColTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of the leading dims
TILING_DATA_FIELD_DEF(uint32_t, cols);         // output row length (last dim)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);   // rows per former block
TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // rows per remaining block
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BroadcastAddCol, BroadcastAddColTilingData)
}  // namespace optiling

#endif  // BROADCAST_ADD_COL_TILING_H
