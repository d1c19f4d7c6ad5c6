#ifndef MSE_LOSS_TILING_H
#define MSE_LOSS_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MseLossTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of predict (= label)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one 32 B unit more
TILING_DATA_FIELD_DEF(uint32_t, formerLength);
TILING_DATA_FIELD_DEF(uint32_t, tailLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MseLoss, MseLossTilingData)
}  // namespace optiling

#endif  // MSE_LOSS_TILING_H
