#ifndef ADD_QUEUE_TILING_H
#define ADD_QUEUE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddQueueTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, bigNum);
  TILING_DATA_FIELD_DEF(uint32_t, bigLength);
  TILING_DATA_FIELD_DEF(uint32_t, smallLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddQueue, AddQueueTilingData)
}  // namespace optiling
#endif
