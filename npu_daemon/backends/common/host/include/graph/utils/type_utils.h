// ge::TypeUtils (metadef graph/utils/type_utils.h): byte sizes and the serial names of data types
// ("DT_FLOAT") and formats ("NCHW") that host code logs and compares.
#pragma once

#include <string>

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

  // "UNDEFINED" for a value outside the enumeration, as the framework answers.
  static std::string DataTypeToSerialString(DataType type) {
#define GE_SERIAL_NAME(name) \
  case name:                 \
    return #name;
    // Tables of macro cases, kept as tables.
    // clang-format off
    switch (type) {
      GE_SERIAL_NAME(DT_FLOAT) GE_SERIAL_NAME(DT_FLOAT16) GE_SERIAL_NAME(DT_INT8) GE_SERIAL_NAME(DT_INT32)
      GE_SERIAL_NAME(DT_UINT8) GE_SERIAL_NAME(DT_INT16) GE_SERIAL_NAME(DT_UINT16) GE_SERIAL_NAME(DT_UINT32)
      GE_SERIAL_NAME(DT_INT64) GE_SERIAL_NAME(DT_UINT64) GE_SERIAL_NAME(DT_DOUBLE) GE_SERIAL_NAME(DT_BOOL)
      GE_SERIAL_NAME(DT_STRING) GE_SERIAL_NAME(DT_DUAL_SUB_INT8) GE_SERIAL_NAME(DT_DUAL_SUB_UINT8)
      GE_SERIAL_NAME(DT_COMPLEX64) GE_SERIAL_NAME(DT_COMPLEX128) GE_SERIAL_NAME(DT_QINT8) GE_SERIAL_NAME(DT_QINT16)
      GE_SERIAL_NAME(DT_QINT32) GE_SERIAL_NAME(DT_QUINT8) GE_SERIAL_NAME(DT_QUINT16) GE_SERIAL_NAME(DT_RESOURCE)
      GE_SERIAL_NAME(DT_STRING_REF) GE_SERIAL_NAME(DT_DUAL) GE_SERIAL_NAME(DT_VARIANT) GE_SERIAL_NAME(DT_BF16)
      GE_SERIAL_NAME(DT_UNDEFINED) GE_SERIAL_NAME(DT_INT4) GE_SERIAL_NAME(DT_UINT1) GE_SERIAL_NAME(DT_INT2)
      GE_SERIAL_NAME(DT_UINT2) GE_SERIAL_NAME(DT_COMPLEX32) GE_SERIAL_NAME(DT_HIFLOAT8)
      GE_SERIAL_NAME(DT_FLOAT8_E5M2) GE_SERIAL_NAME(DT_FLOAT8_E4M3FN) GE_SERIAL_NAME(DT_FLOAT8_E8M0)
      GE_SERIAL_NAME(DT_FLOAT6_E3M2) GE_SERIAL_NAME(DT_FLOAT6_E2M3) GE_SERIAL_NAME(DT_FLOAT4_E2M1)
      GE_SERIAL_NAME(DT_FLOAT4_E1M2)
      default:
        return "UNDEFINED";
    }
#undef GE_SERIAL_NAME
  }

  // The format's name without the FORMAT_ prefix; "UNKNOWN" for one the emulation does not name.
  static std::string FormatToSerialString(Format format) {
#define GE_SERIAL_NAME(name) \
  case FORMAT_##name:        \
    return #name;
    switch (format) {
      GE_SERIAL_NAME(NCHW) GE_SERIAL_NAME(NHWC) GE_SERIAL_NAME(ND) GE_SERIAL_NAME(NC1HWC0)
      GE_SERIAL_NAME(FRACTAL_Z) GE_SERIAL_NAME(HWCN) GE_SERIAL_NAME(C1HWNCoC0) GE_SERIAL_NAME(NDHWC)
      GE_SERIAL_NAME(FRACTAL_NZ) GE_SERIAL_NAME(NCDHW) GE_SERIAL_NAME(DHWCN) GE_SERIAL_NAME(NDC1HWC0)
      GE_SERIAL_NAME(FRACTAL_Z_3D) GE_SERIAL_NAME(NCL)
      default:
        return "UNKNOWN";
    }
    // clang-format on
#undef GE_SERIAL_NAME
  }

  static AscendString DataTypeToAscendString(DataType type) { return DataTypeToSerialString(type).c_str(); }
  static AscendString FormatToAscendString(Format format) { return FormatToSerialString(format).c_str(); }
};

}  // namespace ge
