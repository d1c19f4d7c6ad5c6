#ifndef SOFTMAX_TILING_H
#define SOFTMAX_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of every axis but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);         // the softmax axis
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved by one multi-burst DataCopyPad
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);     // SoftMax's shared scratch
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Softmax, SoftmaxTilingData)
}  // namespace optiling

#endif  // SOFTMAX_TILING_H
