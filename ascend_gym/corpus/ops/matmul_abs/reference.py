"""numpy reference of the corpus operator matmul_abs (ours): c = abs(a @ b + bias) with a @ b +
bias as the cube computes fp16 inputs (`ascend_core.suite.cube_ref.mmad`: products exact in fp32,
summed per fractal step of 16 in k order, the accumulator starting at the bias)."""

import numpy as np

from ascend_core.suite.cube_ref import mmad as cube_mmad


def matmul_abs(a, b, bias):
    return np.abs(cube_mmad(a, b, init=np.broadcast_to(bias, (a.shape[0], b.shape[1]))))
