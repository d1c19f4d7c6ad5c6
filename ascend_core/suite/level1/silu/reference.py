import numpy as np


def silu(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return x / (1 + np.exp(-x))
