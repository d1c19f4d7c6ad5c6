"""numpy reference of the corpus operator matmad (ours): y = weight @ x + bias as the cube computes
fp32 inputs (`ascend_core.suite.cube_ref.mmad` with k0 = 8, docs/simulator.md, cube numbers: each
product rounded to fp32, summed per fractal step of 8 in k order, the accumulator starting at the
bias)."""

import numpy as np

from ascend_core.suite.cube_ref import mmad as cube_mmad


def matmad(weight, x, bias):
    return cube_mmad(weight, x, k0=8, init=np.broadcast_to(bias, (weight.shape[0], x.shape[1])))
