// ge::DataType and ge::Format values as macros, as the real toolchain defines them for a kernel
// compile, so `#if ORIG_DTYPE_X == DT_BF16` and `#if FORMAT_X == FORMAT_ND` select the right code.
// Included by the build prelude (after the precompiled header), never by kernel_operator.h. The
// host declarations that spell these names are included first so the macros cannot rewrite them.
#pragma once

#include "ascendc_sim/host_context.h"

#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_BF16 27
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_INT4 29

#define FORMAT_NCHW 0
#define FORMAT_NHWC 1
#define FORMAT_ND 2
