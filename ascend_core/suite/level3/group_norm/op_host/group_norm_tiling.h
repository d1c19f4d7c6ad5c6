#ifndef GROUP_NORM_TILING_H
#define GROUP_NORM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupNormTilingData)
TILING_DATA_FIELD_DEF(uint32_t, channels);       // C
TILING_DATA_FIELD_DEF(uint32_t, spatial);        // product of the dims after C
TILING_DATA_FIELD_DEF(uint32_t, groupChannels);  // C / num_groups
TILING_DATA_FIELD_DEF(uint32_t, numGroups);      // attr
TILING_DATA_FIELD_DEF(uint32_t, formerNum);      // blocks that take one group more
TILING_DATA_FIELD_DEF(uint32_t, formerGroups);   // (n, g) groups per former block
TILING_DATA_FIELD_DEF(uint32_t, tailGroups);     // groups per remaining block
TILING_DATA_FIELD_DEF(uint32_t, tileLength);     // elements per UB tile
TILING_DATA_FIELD_DEF(float, eps);               // attr
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupNorm, GroupNormTilingData)
}  // namespace optiling

#endif  // GROUP_NORM_TILING_H
