import numpy as np

from ascend_core.suite.cube_ref import matmul_f16


def batch_matmul_trans_b(a, b):
    return np.stack([matmul_f16(a[i], b[i].T) for i in range(a.shape[0])])
