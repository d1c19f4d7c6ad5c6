#ifndef A3_BANK_TILING_H
#define A3_BANK_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(A3BankTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);   // float elements per operand
TILING_DATA_FIELD_DEF(uint32_t, variant);  // 0: no conflict, 1: read-read, 2: read-write
TILING_DATA_FIELD_DEF(uint32_t, adds);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(A3Bank, A3BankTilingData)
}  // namespace optiling

#endif  // A3_BANK_TILING_H
