import numpy as np


def mul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x * y
