#ifndef SWIGLU_TILING_H
#define SWIGLU_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SwigluTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of the leading dims
TILING_DATA_FIELD_DEF(uint32_t, cols);         // output row length (last dim)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);   // rows per former block
TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // rows per remaining block
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Swiglu, SwigluTilingData)
}  // namespace optiling

#endif  // SWIGLU_TILING_H
