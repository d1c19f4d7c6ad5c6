import numpy as np


def sub(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x - y
