// dst = src * scale + offset on n floats; the project's operators include it as "offset_math.h",
// after kernel_operator.h.
#pragma once

__aicore__ inline void OffsetMath(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                  float scale, float offset, uint32_t n) {
  AscendC::Muls(dst, src, scale, n);
  AscendC::Adds(dst, dst, offset, n);
}
