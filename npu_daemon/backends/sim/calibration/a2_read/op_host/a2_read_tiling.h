#ifndef A2_READ_TILING_H
#define A2_READ_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(A2ReadTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);       // matrix rows
TILING_DATA_FIELD_DEF(uint32_t, cols);       // matrix columns (elements)
TILING_DATA_FIELD_DEF(uint32_t, tileRows);
TILING_DATA_FIELD_DEF(uint32_t, tileCols);
TILING_DATA_FIELD_DEF(uint32_t, shared);     // 0: each block its own row band; 1: every block the whole matrix
TILING_DATA_FIELD_DEF(uint32_t, staggered);  // shared: block b starts at tile b * tiles / blocks
TILING_DATA_FIELD_DEF(uint32_t, queued);     // 1: each tile through a one-slot queue (latency exposed)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(A2Read, A2ReadTilingData)
}  // namespace optiling

#endif  // A2_READ_TILING_H
