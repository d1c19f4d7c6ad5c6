"""numpy reference of batch_mat_mul_v3 (ours). BatchMatMulV3: adj_* transpose the last two axes."""

import numpy as np


def batch_mat_mul_v3(x1, x2, bias, offset_w, adj_x1, adj_x2, offset_x, enable_hf32):
    a = np.asarray(x1, np.float64)
    b = np.asarray(x2, np.float64)
    y = (np.swapaxes(a, -1, -2) if adj_x1 else a) @ (np.swapaxes(b, -1, -2) if adj_x2 else b)
    return y + np.asarray(bias, np.float64) if bias is not None else y
