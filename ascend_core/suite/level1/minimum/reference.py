import numpy as np


def minimum(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.minimum(x, y)
