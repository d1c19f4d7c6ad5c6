#ifndef CROSS_ENTROPY_LOSS_TILING_H
#define CROSS_ENTROPY_LOSS_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossEntropyLossTilingData)
TILING_DATA_FIELD_DEF(uint32_t, classes);     // C: row length
TILING_DATA_FIELD_DEF(uint32_t, formerNum);   // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);  // rows per former block
TILING_DATA_FIELD_DEF(uint32_t, tailRows);    // rows per remaining block
TILING_DATA_FIELD_DEF(uint32_t, tileRows);    // rows per tile: one multi-burst copy in
TILING_DATA_FIELD_DEF(int32_t, ignoreIndex);  // attr
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossEntropyLoss, CrossEntropyLossTilingData)
}  // namespace optiling

#endif  // CROSS_ENTROPY_LOSS_TILING_H
