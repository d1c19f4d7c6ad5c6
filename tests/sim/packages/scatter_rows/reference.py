import numpy as np


def scatter_rows(var, indices, updates):
    out = var.astype(np.float64)
    for k, row in enumerate(indices):
        out[row] = np.float32(out[row] + updates[k])  # one fp32 add per update, in order
    return out
