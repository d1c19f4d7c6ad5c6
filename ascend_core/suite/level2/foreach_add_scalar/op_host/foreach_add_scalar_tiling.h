#ifndef FOREACH_ADD_SCALAR_TILING_H
#define FOREACH_ADD_SCALAR_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ForeachAddScalarTilingData)
TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, lengths);  // elements of each tensor of the list
TILING_DATA_FIELD_DEF(uint32_t, totalLength);     // the list seen as one concatenated range
TILING_DATA_FIELD_DEF(uint32_t, formerNum);       // blocks that take one 32 B unit more
TILING_DATA_FIELD_DEF(uint32_t, formerLength);
TILING_DATA_FIELD_DEF(uint32_t, tailLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, scalar);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachAddScalar, ForeachAddScalarTilingData)
}  // namespace optiling

#endif  // FOREACH_ADD_SCALAR_TILING_H
