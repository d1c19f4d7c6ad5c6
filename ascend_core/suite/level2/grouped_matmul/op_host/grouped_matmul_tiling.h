#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupedMatmulTilingData)
TILING_DATA_FIELD_DEF(uint32_t, groups);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);  // singleCoreM x singleCoreN: one work item of a group
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GroupedMatmul, GroupedMatmulTilingData)
}  // namespace optiling
