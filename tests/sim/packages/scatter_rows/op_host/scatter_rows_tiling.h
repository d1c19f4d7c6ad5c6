#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScatterRowsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, updates);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScatterRows, ScatterRowsTilingData)
}  // namespace optiling
