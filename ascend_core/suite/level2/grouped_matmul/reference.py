import numpy as np

from ascend_core.suite.cube_ref import matmul_f16


def grouped_matmul(x, w, group_sizes):
    y = np.zeros((x.shape[0], w.shape[2]), np.float16)
    row = 0
    for g, m in enumerate(group_sizes.astype(np.int64)):
        if m:
            y[row : row + m] = matmul_f16(x[row : row + m], w[g])
        row += m
    return y
