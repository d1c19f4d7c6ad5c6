#ifndef CROSS_ENTROPY_TILING_H
#define CROSS_ENTROPY_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossEntropyTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // samples
TILING_DATA_FIELD_DEF(uint32_t, cols);         // classes
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved by one multi-burst DataCopyPad
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);     // LogSoftMax's shared scratch
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossEntropy, CrossEntropyTilingData)
}  // namespace optiling

#endif  // CROSS_ENTROPY_TILING_H
