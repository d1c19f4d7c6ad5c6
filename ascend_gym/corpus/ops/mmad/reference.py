"""numpy reference of the corpus operator mmad (ours): c = a @ b + bias as the cube computes it
(docs/simulator.md, cube numbers): fp16 products exact in fp32, summed per fractal step of 16 in k
order from 0 in fp32, each step's sum added in fp32 to the accumulator, which starts at the bias
(the bias table)."""

import numpy as np


def cube_mmad(a, b, init):
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    c = np.broadcast_to(init.astype(np.float32), (a.shape[0], b.shape[1])).copy()
    for kb in range(0, a.shape[1], 16):
        part = np.zeros_like(c)
        for kk in range(kb, min(a.shape[1], kb + 16)):
            part += fa[:, kk : kk + 1] * fb[kk : kk + 1, :]
        c += part
    return c


def mmad(a, b, bias):
    return cube_mmad(a, b, bias.reshape(1, -1))
