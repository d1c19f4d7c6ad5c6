#ifndef MAX_SYNCALL_TILING_H
#define MAX_SYNCALL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxSyncallTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 65, blockOffsets);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxSyncall, MaxSyncallTilingData)
}  // namespace optiling
#endif
