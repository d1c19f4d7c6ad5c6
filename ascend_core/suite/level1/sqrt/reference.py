import numpy as np


def sqrt(x: np.ndarray) -> np.ndarray:
    return np.sqrt(x.astype(np.float64))
