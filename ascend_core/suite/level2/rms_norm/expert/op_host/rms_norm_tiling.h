#ifndef RMS_NORM_TILING_H
#define RMS_NORM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of every axis but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);         // the normalised axis
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(float, eps);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved by one multi-burst DataCopyPad
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);     // RmsNorm's shared scratch
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsNormTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNorm, RmsNormTilingData)
}  // namespace optiling

#endif  // RMS_NORM_TILING_H
