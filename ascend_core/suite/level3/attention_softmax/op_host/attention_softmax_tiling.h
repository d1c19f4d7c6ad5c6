#ifndef ATTENTION_SOFTMAX_TILING_H
#define ATTENTION_SOFTMAX_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AttentionSoftmaxTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // batch * heads * q: softmax rows
TILING_DATA_FIELD_DEF(uint32_t, cols);         // k: row length
TILING_DATA_FIELD_DEF(uint32_t, maskRows);     // q: row r uses mask row r % q
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);   // rows per former block
TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // rows per remaining block
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved per UB tile
TILING_DATA_FIELD_DEF(float, scale);           // attr
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AttentionSoftmax, AttentionSoftmaxTilingData)
}  // namespace optiling

#endif  // ATTENTION_SOFTMAX_TILING_H
