import numpy as np

def rmsnorm_rows(x, gamma, epsilon):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + epsilon) * gamma
