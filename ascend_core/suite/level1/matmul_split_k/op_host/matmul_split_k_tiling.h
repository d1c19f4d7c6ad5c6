#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulSplitKTilingData)
TILING_DATA_FIELD_DEF(uint32_t, splitK);    // K slices (1: no split)
TILING_DATA_FIELD_DEF(uint32_t, sliceK);    // K per slice, a multiple of baseK
TILING_DATA_FIELD_DEF(uint32_t, mnBlocks);  // singleCoreM x singleCoreN blocks of C
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulSplitK, MatmulSplitKTilingData)
}  // namespace optiling
