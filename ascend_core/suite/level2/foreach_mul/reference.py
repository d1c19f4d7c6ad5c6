import numpy as np


def foreach_mul(x0, x1, x2, other0, other1, other2):
    return tuple(x.astype(np.float64) * o.astype(np.float64) for x, o in ((x0, other0), (x1, other1), (x2, other2)))
