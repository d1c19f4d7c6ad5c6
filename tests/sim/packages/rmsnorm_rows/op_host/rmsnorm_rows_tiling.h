#ifndef RMSNORM_ROWS_TILING_H
#define RMSNORM_ROWS_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(RmsnormRowsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, colsPad);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsnormRows, RmsnormRowsTilingData)
}  // namespace optiling
#endif
