"""numpy reference of the corpus operator matmul_leakyrelu (ours): x = a @ b + bias as the cube
computes fp16 inputs (`ascend_core.suite.cube_ref.mmad`, docs/simulator.md, cube numbers:
products exact in fp32, summed per fractal step of 16 in k order, the accumulator starting at the
bias), then leaky_relu in fp32 with the tiling's alpha 0.001 (a float)."""

import numpy as np

from ascend_core.suite.cube_ref import mmad as cube_mmad


def matmul_leakyrelu(a, b, bias):
    x = cube_mmad(a, b, init=np.broadcast_to(bias, (a.shape[0], b.shape[1])))
    return np.where(x >= 0, x, x * np.float32(0.001))
