import numpy as np

def gelu_bf16(x):
    return x / (1 + np.exp(-1.5957691216057308 * (x + 0.044715 * x ** 3)))
