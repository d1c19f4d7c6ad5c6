#ifndef LOG_SOFTMAX_TILING_H
#define LOG_SOFTMAX_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftmaxTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of every axis but the last
TILING_DATA_FIELD_DEF(uint32_t, cols);         // the normalised axis
TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // blocks that take one row more
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogSoftmax, LogSoftmaxTilingData)
}  // namespace optiling

#endif  // LOG_SOFTMAX_TILING_H
