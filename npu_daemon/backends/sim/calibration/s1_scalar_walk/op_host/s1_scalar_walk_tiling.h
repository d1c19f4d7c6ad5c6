#ifndef S1_SCALAR_WALK_TILING_H
#define S1_SCALAR_WALK_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(S1ScalarWalkTilingData)
TILING_DATA_FIELD_DEF(uint32_t, stride);  // elements between reads
TILING_DATA_FIELD_DEF(uint32_t, reads);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(S1ScalarWalk, S1ScalarWalkTilingData)
}  // namespace optiling

#endif  // S1_SCALAR_WALK_TILING_H
