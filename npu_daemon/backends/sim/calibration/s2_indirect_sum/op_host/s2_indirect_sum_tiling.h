#ifndef S2_INDIRECT_SUM_TILING_H
#define S2_INDIRECT_SUM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(S2IndirectSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, bytes);  // the data buffer, copied to UB whole
TILING_DATA_FIELD_DEF(uint32_t, count);  // offsets read, one scalar load each
TILING_DATA_FIELD_DEF(uint32_t, preload);  // 1: each step preloads the next step's line (anchor S3)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(S2IndirectSum, S2IndirectSumTilingData)
}  // namespace optiling

#endif  // S2_INDIRECT_SUM_TILING_H
