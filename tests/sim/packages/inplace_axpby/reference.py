import numpy as np


def inplace_axpby(x, y, coefs, flags):
    r = np.float32(coefs[0]) * x + np.float32(coefs[1]) * y
    return -r if flags[0] else r
