#ifndef SCALE_SHIFT_ATTR_TILING_H
#define SCALE_SHIFT_ATTR_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleShiftAttrTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, bigNum);
  TILING_DATA_FIELD_DEF(uint32_t, bigLength);
  TILING_DATA_FIELD_DEF(uint32_t, smallLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, shift);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleShiftAttr, ScaleShiftAttrTilingData)
}  // namespace optiling
#endif
