#pragma once
#include "register/tilingdata_base.h"

constexpr uint32_t MAX_DIMS = 8;  // host-side limit; the kernel keeps its own constant of this name
struct RowSplit {                 // a host helper the kernel never sees
  uint32_t rowsPerCore;
  uint32_t cores;
};

namespace optiling {
struct ExpandRowsTiling {  // what the host really saves: a plain struct copied with memcpy
  uint32_t rows;
  uint32_t cols;
  uint32_t rowsPerCore;
};

BEGIN_TILING_DATA_DEF(ExpandRowsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ExpandRows, ExpandRowsTilingData)
}  // namespace optiling
