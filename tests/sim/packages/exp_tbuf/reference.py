import numpy as np

def exp_tbuf(x):
    return np.exp(x.astype(np.float32))
