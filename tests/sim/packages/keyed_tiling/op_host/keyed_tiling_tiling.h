#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeyedTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeyedTiling, KeyedTilingData)

BEGIN_TILING_DATA_DEF(KeyedScaleTilingData)  // key 2 only: the default struct has no scale
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(uint32_t, total);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeyedTiling_2, KeyedScaleTilingData)
}  // namespace optiling
