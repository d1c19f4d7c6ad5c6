#ifndef ROTARY_EMBEDDING_TILING_H
#define ROTARY_EMBEDDING_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RotaryEmbeddingTilingData)
TILING_DATA_FIELD_DEF(uint32_t, heads);           // H
TILING_DATA_FIELD_DEF(uint32_t, half);            // head_dim / 2
TILING_DATA_FIELD_DEF(uint32_t, formerNum);       // blocks that take one token more
TILING_DATA_FIELD_DEF(uint32_t, formerTokens);    // tokens per former block
TILING_DATA_FIELD_DEF(uint32_t, tailTokens);      // tokens per remaining block
TILING_DATA_FIELD_DEF(uint32_t, tokensPerTile);   // tokens moved per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RotaryEmbedding, RotaryEmbeddingTilingData)
}  // namespace optiling

#endif  // ROTARY_EMBEDDING_TILING_H
