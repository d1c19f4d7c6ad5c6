import numpy as np


def add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x + y
