import numpy as np


def foreach_add_scalar(x0, x1, x2, scalar: float = 1.0):
    return tuple(x.astype(np.float64) + scalar for x in (x0, x1, x2))
