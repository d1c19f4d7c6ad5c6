import numpy as np


def matmul(a, b, trans_b):
    bb = b.astype(np.float64)
    return (a.astype(np.float64) @ (bb.T if trans_b else bb)).astype(a.dtype)
