"""The pattern reductions of the high-level API (asc-devkit 归约操作): ReduceProd, ReduceAny,
ReduceAll and ReduceMean over the last (AR) and the first (RA) axis of a 2-D float tensor whose
rows are padded to 32 B, with and without a sharedTmpBuffer; exact against numpy."""

import numpy as np
from conftest import UB_HELPERS

ROWS, COLS, PITCH = 4, 6, 8  # 6 floats a row, padded to 8 (32 B)


def test_pattern_reductions(kernel):
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, (ROWS, COLS)).astype(
        np.float32
    )  # small integers: exact products and sums
    bits = rng.integers(0, 2, (ROWS, COLS)).astype(np.float32)
    bits[0] = 1  # one row all true, one all false, so All and Any see both outcomes
    bits[1] = 0
    padded = np.zeros((2, ROWS, PITCH), np.float32)
    padded[0, :, :COLS], padded[1, :, :COLS] = x, bits
    body = f"""Ub ub;
  LocalTensor<float> v = ub.In<float>(x, {ROWS * PITCH}), b = ub.In<float>(x + {ROWS * PITCH} * 4, {ROWS * PITCH});
  LocalTensor<float> o = ub.Alloc<float>(8 * 8);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  uint32_t shape[2] = {{{ROWS}, {COLS}}};
  ReduceProd<float, Pattern::Reduce::AR>(o[0], v, tmp, shape, true);
  ReduceProd<float, Pattern::Reduce::RA>(o[8], v, shape, true);
  ReduceMean<float, Pattern::Reduce::AR>(o[16], v, shape, true);
  ReduceMean<float, Pattern::Reduce::RA, true>(o[24], v, tmp, shape, true);
  ReduceAny<float, Pattern::Reduce::AR>(o[32], b, shape, true);
  ReduceAny<float, Pattern::Reduce::RA>(o[40], b, tmp, shape, true);
  ReduceAll<float, Pattern::Reduce::AR>(o[48], b, tmp, shape, true);
  ReduceAll<float, Pattern::Reduce::RA>(o[56], b, shape, true);
  SYNC(); ub.Out(z, o, 64);"""
    z = (
        kernel(body, {"x": padded.ravel()}, {"z": ("float32", (8, 8))}, prelude=UB_HELPERS)
        .ok()
        .outputs["z"]
    )
    np.testing.assert_array_equal(z[0, :ROWS], x.prod(axis=1))
    np.testing.assert_array_equal(z[1, :COLS], x.prod(axis=0))
    np.testing.assert_array_equal(z[2, :ROWS], (x.sum(axis=1) / COLS).astype(np.float32))
    np.testing.assert_array_equal(z[3, :COLS], x.mean(axis=0))
    np.testing.assert_array_equal(z[4, :ROWS], bits.max(axis=1))
    np.testing.assert_array_equal(z[5, :COLS], bits.max(axis=0))
    np.testing.assert_array_equal(z[6, :ROWS], bits.min(axis=1))
    np.testing.assert_array_equal(z[7, :COLS], bits.min(axis=0))
    assert list(z[6, :2]) == [1, 0] and list(z[4, :2]) == [1, 0]
