#ifndef CLAMP_ADV_TILING_H
#define CLAMP_ADV_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClampAdvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, bigNum);
  TILING_DATA_FIELD_DEF(uint32_t, bigLength);
  TILING_DATA_FIELD_DEF(uint32_t, smallLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampAdv, ClampAdvTilingData)
}  // namespace optiling
#endif
