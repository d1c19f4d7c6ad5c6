import numpy as np


def scale_shift(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    return x.astype(np.float64) * gamma + beta
