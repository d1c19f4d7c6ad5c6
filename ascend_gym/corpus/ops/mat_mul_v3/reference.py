"""numpy reference of mat_mul_v3 (ours). MatMulV3: float64 products, rounded once to y's dtype by the checker."""

import numpy as np


def mat_mul_v3(x1, x2, bias, offset_w, transpose_x1, transpose_x2, offset_x):
    a = np.asarray(x1, np.float64)
    b = np.asarray(x2, np.float64)
    y = (a.T if transpose_x1 else a) @ (b.T if transpose_x2 else b)
    return y + np.asarray(bias, np.float64) if bias is not None else y
