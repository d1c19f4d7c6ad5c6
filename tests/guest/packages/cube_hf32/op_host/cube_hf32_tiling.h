#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CubeHf32TilingData)
TILING_DATA_FIELD_DEF(int32_t, hf32);
TILING_DATA_FIELD_DEF(int32_t, transMode);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CubeHf32, CubeHf32TilingData)
}  // namespace optiling
