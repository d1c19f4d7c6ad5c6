#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WideAddTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(WideAdd, WideAddTilingData)
}  // namespace optiling
