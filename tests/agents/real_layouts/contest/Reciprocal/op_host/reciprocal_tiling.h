#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReciprocalTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Reciprocal, ReciprocalTilingData)
}  // namespace optiling
