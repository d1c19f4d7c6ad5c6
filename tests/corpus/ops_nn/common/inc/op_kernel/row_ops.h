// A shared kernel header of our own in ops-nn's place (common/inc/op_kernel): the build copies the
// directory beside each kernel's, so kernels include it as "../inc/row_ops.h".
#pragma once
#include "kernel_operator.h"
#include "row_math.h"  // beside it in the copy

// Whole 32-byte blocks of float: count-form DataCopy moves nothing less.
__aicore__ inline uint32_t FloatBlocks(uint32_t n) { return (n + 7) / 8 * 8; }
