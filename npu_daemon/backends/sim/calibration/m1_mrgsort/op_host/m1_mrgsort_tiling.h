#ifndef M1_MRGSORT_TILING_H
#define M1_MRGSORT_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(M1MrgSortTilingData)
TILING_DATA_FIELD_DEF(uint32_t, repeats);  // merges of four 64-pair lists (512 floats each)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(M1Mrgsort, M1MrgSortTilingData)
}  // namespace optiling

#endif  // M1_MRGSORT_TILING_H
