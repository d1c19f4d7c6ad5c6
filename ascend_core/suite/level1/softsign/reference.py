import numpy as np


def softsign(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return x / (1 + np.abs(x))
