import numpy as np

def max_syncall(x):
    return np.array([x.max()], np.float32)
