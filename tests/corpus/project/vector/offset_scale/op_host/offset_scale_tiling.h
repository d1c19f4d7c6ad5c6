#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(OffsetScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, offset);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OffsetScale, OffsetScaleTilingData)
}  // namespace optiling
