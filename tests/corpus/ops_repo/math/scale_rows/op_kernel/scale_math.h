// A sibling operator's kernel header: dst = src * scale + offset on n floats. Other operators
// include it from the repository root, "math/scale_rows/op_kernel/scale_math.h".
#pragma once
#include "kernel_operator.h"

__aicore__ inline void ScaleMath(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                 float scale, float offset, uint32_t n) {
  AscendC::Muls(dst, src, scale, n);
  AscendC::Adds(dst, dst, offset, n);
}
