#ifndef CUMSUM_ROWS_TILING_H
#define CUMSUM_ROWS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumsumRowsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, colsPad);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumRows, CumsumRowsTilingData)
}  // namespace optiling
#endif
