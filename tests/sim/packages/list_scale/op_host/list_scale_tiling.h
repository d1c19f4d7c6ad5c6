#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ListScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, count);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, lengths);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ListScale, ListScaleTilingData)
}  // namespace optiling
