#ifndef CROSS_ENTROPY_TILING_H
#define CROSS_ENTROPY_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossEntropyTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // samples
TILING_DATA_FIELD_DEF(uint32_t, cols);         // classes
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, outChunk);     // targets loaded and losses written per copy
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossEntropy, CrossEntropyTilingData)
}  // namespace optiling

#endif  // CROSS_ENTROPY_TILING_H
