#ifndef MAX_L2HINT_TILING_H
#define MAX_L2HINT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxL2hintTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, bigNum);
  TILING_DATA_FIELD_DEF(uint32_t, bigLength);
  TILING_DATA_FIELD_DEF(uint32_t, smallLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxL2hint, MaxL2hintTilingData)
}  // namespace optiling
#endif
