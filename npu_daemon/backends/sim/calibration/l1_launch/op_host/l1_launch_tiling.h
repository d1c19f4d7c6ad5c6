#ifndef L1_LAUNCH_TILING_H
#define L1_LAUNCH_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L1LaunchTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);  // float elements of x
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(L1Launch, L1LaunchTilingData)
}  // namespace optiling

#endif  // L1_LAUNCH_TILING_H
