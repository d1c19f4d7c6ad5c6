#ifndef LAYER_NORM_TILING_H
#define LAYER_NORM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of every axis but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);         // the normalised axis
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNorm, LayerNormTilingData)
}  // namespace optiling

#endif  // LAYER_NORM_TILING_H
