#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FillAllocTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(float, value);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FillAlloc, FillAllocTilingData)
}  // namespace optiling
