// The C spelling of the graph data types (metadef's graph/c_types.h), numbered as ge::DataType;
// template tiling keys name dtypes with them (ASCENDC_TPL_DATATYPE_DECL(T, C_DT_FLOAT, ...)).
#pragma once

typedef enum {
  C_DT_FLOAT = 0, C_DT_FLOAT16 = 1, C_DT_INT8 = 2, C_DT_INT32 = 3, C_DT_UINT8 = 4, C_DT_INT16 = 6,
  C_DT_UINT16 = 7, C_DT_UINT32 = 8, C_DT_INT64 = 9, C_DT_UINT64 = 10, C_DT_DOUBLE = 11, C_DT_BOOL = 12,
  C_DT_STRING = 13, C_DT_DUAL_SUB_INT8 = 14, C_DT_DUAL_SUB_UINT8 = 15, C_DT_COMPLEX64 = 16,
  C_DT_COMPLEX128 = 17, C_DT_QINT8 = 18, C_DT_QINT16 = 19, C_DT_QINT32 = 20, C_DT_QUINT8 = 21,
  C_DT_QUINT16 = 22, C_DT_RESOURCE = 23, C_DT_STRING_REF = 24, C_DT_DUAL = 25, C_DT_VARIANT = 26,
  C_DT_BF16 = 27, C_DT_UNDEFINED = 28, C_DT_INT4 = 29, C_DT_UINT1 = 30, C_DT_INT2 = 31, C_DT_UINT2 = 32,
  C_DT_COMPLEX32 = 33, C_DT_MAX = 34
} C_DataType;
