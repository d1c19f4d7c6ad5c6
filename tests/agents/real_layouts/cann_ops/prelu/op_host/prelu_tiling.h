#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PreluTilingData)
TILING_DATA_FIELD_DEF(uint32_t, planes);
TILING_DATA_FIELD_DEF(uint32_t, inner);
TILING_DATA_FIELD_DEF(uint32_t, channels);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(uint32_t, tile);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Prelu, PreluTilingData)
}  // namespace optiling
