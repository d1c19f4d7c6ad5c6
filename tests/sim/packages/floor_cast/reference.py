import numpy as np

def floor_cast(x):
    return np.floor(x).astype(np.int32)
