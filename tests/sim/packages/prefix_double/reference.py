import numpy as np


def prefix_double(x, count):
    y = 2 * x.ravel()
    undefined = np.arange(y.size) >= count
    return np.ma.array(y, mask=undefined).reshape(x.shape)
