import numpy as np


def squared_difference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    d = x.astype(np.float64) - y
    return d * d
