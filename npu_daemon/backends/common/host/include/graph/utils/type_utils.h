#pragma once

#include "ascendc_sim/host_context.h"

namespace ge {

class TypeUtils {
 public:
  static bool GetDataTypeLength(DataType dtype, uint32_t& length) {
    int32_t n = DataTypeBytes(dtype);
    if (n < 0) return false;
    length = static_cast<uint32_t>(n);
    return true;
  }
};

}  // namespace ge
