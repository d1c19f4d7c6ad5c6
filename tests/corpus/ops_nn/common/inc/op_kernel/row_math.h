// Included by row_ops.h by its bare name and by the kernel's arch22 header as "../inc/row_math.h".
#pragma once
#include "kernel_operator.h"

// t = t * scale + shift, in place.
__aicore__ inline void AffineInPlace(const AscendC::LocalTensor<float>& t, float scale, float shift,
                                     uint32_t n) {
  AscendC::Muls(t, t, scale, n);
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::Adds(t, t, shift, n);
}
