import numpy as np


def cummax(x: np.ndarray) -> np.ndarray:
    return np.maximum.accumulate(x, axis=1)
