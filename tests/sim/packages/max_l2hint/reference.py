import numpy as np

def max_l2hint(x, y):
    return np.maximum(x, y)
