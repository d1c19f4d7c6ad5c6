import numpy as np

def sum_atomic(x):
    return np.array([x.astype(np.float64).sum()], np.float32)
