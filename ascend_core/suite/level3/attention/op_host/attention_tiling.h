#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AttentionTilingData)
TILING_DATA_FIELD_DEF(uint32_t, heads);      // batch x heads
TILING_DATA_FIELD_DEF(uint32_t, seq);        // query rows per head
TILING_DATA_FIELD_DEF(uint32_t, kvSeq);      // key / value rows per head
TILING_DATA_FIELD_DEF(uint32_t, dim);        // head dim
TILING_DATA_FIELD_DEF(uint32_t, rows);       // query rows per work item
TILING_DATA_FIELD_DEF(uint32_t, kvBlock);    // key columns per score block (the whole kvSeq unless tiled)
TILING_DATA_FIELD_DEF(uint32_t, chunkRows);  // score rows per UB tile of the softmax
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qk);  // scores = q @ k^T: rows x kvBlock x dim, fp32 out
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pv);  // p @ v: rows x dim x kvBlock
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Attention, AttentionTilingData)
}  // namespace optiling
