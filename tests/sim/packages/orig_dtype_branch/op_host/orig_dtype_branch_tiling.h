#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(OrigDtypeBranchTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, total);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(OrigDtypeBranch, OrigDtypeBranchTilingData)
}  // namespace optiling
