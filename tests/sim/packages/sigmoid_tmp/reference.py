import numpy as np

def sigmoid_tmp(x):
    return 1 / (1 + np.exp(-x.astype(np.float32)))
