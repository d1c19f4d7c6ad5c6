"""Copy's counter mode on the guest engine: the mask counts the lanes of each repeat and repeatTime
counts (asc-devkit, Copy's constraints); the guest gets the native engine's verdict and simulated
latency, and both pass level1/add's check only with that reading."""

from __future__ import annotations

from .test_vector import ADD, add_with

# z = x + y: x reaches z through one counter-mode Copy of four repeats of `per` lanes (a repeat of
# more than 256 B), the lanes past them through Adds; then y is added.
COPY_ROWS = """  __aicore__ inline void Compute(uint32_t len) {
    using T = DTYPE_Z;
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = inQueueY.DeQue<T>();
    LocalTensor<T> z = outQueueZ.AllocTensor<T>();
    constexpr uint32_t ALIGN = 32 / sizeof(T);
    const T zero = 0;
    const uint32_t n = (len + ALIGN - 1) / ALIGN * ALIGN, per = n / (4 * ALIGN) * ALIGN;
    const uint16_t stride = static_cast<uint16_t>(per / ALIGN);
    if (per) {
      SetMaskCount();
      SetVectorMask<T, MaskMode::COUNTER>(0, per);
      Copy<T, false>(z, x, MASK_PLACEHOLDER, 4, {1, 1, stride, stride});
      SetMaskNorm();
      ResetMask();
      PipeBarrier<PIPE_V>();
    }
    if (n > 4 * per) Adds(z[4 * per], x[4 * per], zero, n - 4 * per);
    PipeBarrier<PIPE_V>();
    Add(z, z, y, n);
    outQueueZ.EnQue<T>(z);
    inQueueX.FreeTensor(x);
    inQueueY.FreeTensor(y);
  }
"""


def test_counter_mode_copy_rows_match_the_native_engine(engines):
    engines.same(ADD.with_sources(kernel=add_with(COPY_ROWS)))
