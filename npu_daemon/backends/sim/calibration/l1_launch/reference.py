import numpy as np


def swiglu(x: np.ndarray) -> np.ndarray:
    a, b = x[:64], x[64:]
    return a / (1 + np.exp(-a)) * b
