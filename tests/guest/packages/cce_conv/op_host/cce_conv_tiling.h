#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CceConvTilingData)
TILING_DATA_FIELD_DEF(uint32_t, unused);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CceConv, CceConvTilingData)
}  // namespace optiling
