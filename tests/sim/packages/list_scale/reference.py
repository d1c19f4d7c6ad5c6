import numpy as np


def list_scale(x0, x1, x2, offset):
    return tuple(np.float32(i + 1) * x + offset.ravel()[0] for i, x in enumerate((x0, x1, x2)))
