#ifndef A1_ADD_TILING_H
#define A1_ADD_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(A1AddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, scalarLoop);   // 1: GetValue/SetValue per element instead of Add
TILING_DATA_FIELD_DEF(uint32_t, blockLength);  // elements per block (the last block takes the rest)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per copy
TILING_DATA_FIELD_DEF(uint32_t, doubleBuffer); // 1: two [x | y] slots, computed in place
TILING_DATA_FIELD_DEF(uint32_t, l2Bypass);     // 1: SetL2CacheHint(DISABLE) on x and y
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(A1Add, A1AddTilingData)
}  // namespace optiling

#endif  // A1_ADD_TILING_H
