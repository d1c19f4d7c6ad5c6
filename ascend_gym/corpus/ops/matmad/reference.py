"""numpy reference of the corpus operator matmad (ours): y = weight @ x + bias as the cube computes
fp32 inputs (docs/simulator.md, cube numbers): each product rounded to fp32, summed per fractal
step of 8 in k order from 0 in fp32, each step's sum added in fp32 to the accumulator, which starts
at the bias."""

import numpy as np


def cube_mmad(a, b, init, k0=8):
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    c = np.broadcast_to(init.astype(np.float32), (a.shape[0], b.shape[1])).copy()
    for kb in range(0, a.shape[1], k0):
        part = np.zeros_like(c)
        for kk in range(kb, min(a.shape[1], kb + k0)):
            part += fa[:, kk : kk + 1] * fb[kk : kk + 1, :]
        c += part
    return c


def matmad(weight, x, bias):
    return cube_mmad(weight, x, bias.reshape(1, -1))
