"""numpy reference of the corpus operator matmul_sinh (ours): c = sinh(a @ b + bias) with a @ b +
bias as the cube computes fp32 inputs (`ascend_core.suite.cube_ref.mmad` with fractal steps of 8:
products rounded to fp32, summed per step in k order, the accumulator starting at the bias)."""

import numpy as np

from ascend_core.suite.cube_ref import mmad as cube_mmad


def matmul_sinh(a, b, bias):
    c = cube_mmad(a, b, k0=8, init=np.broadcast_to(bias, (a.shape[0], b.shape[1])))
    return np.sinh(c.astype(np.float64))
