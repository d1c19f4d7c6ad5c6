#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dTilingData)
TILING_DATA_FIELD_DEF(uint32_t, batch);
TILING_DATA_FIELD_DEF(uint32_t, h);
TILING_DATA_FIELD_DEF(uint32_t, w);
TILING_DATA_FIELD_DEF(uint32_t, c);
TILING_DATA_FIELD_DEF(uint32_t, cout);
TILING_DATA_FIELD_DEF(uint32_t, kh);
TILING_DATA_FIELD_DEF(uint32_t, kw);
TILING_DATA_FIELD_DEF(uint32_t, stride);
TILING_DATA_FIELD_DEF(uint32_t, pad);
TILING_DATA_FIELD_DEF(uint32_t, oh);
TILING_DATA_FIELD_DEF(uint32_t, ow);
TILING_DATA_FIELD_DEF(uint32_t, itemM);         // output positions per work item (a multiple of baseM)
TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);  // consecutive work items per cube core
TILING_DATA_FIELD_DEF(uint32_t, baseM);         // output positions per img2col load and Mmad
TILING_DATA_FIELD_DEF(uint32_t, baseK);         // img2col columns per load and Mmad
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Conv2d, Conv2dTilingData)
}  // namespace optiling
