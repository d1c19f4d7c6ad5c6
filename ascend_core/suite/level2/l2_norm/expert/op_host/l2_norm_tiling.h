#ifndef L2_NORM_TILING_H
#define L2_NORM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2NormTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of every axis but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);         // the normalised axis
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(float, eps);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved by one multi-burst DataCopyPad
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);     // Sum's shared scratch
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(L2Norm, L2NormTilingData)
}  // namespace optiling

#endif  // L2_NORM_TILING_H
