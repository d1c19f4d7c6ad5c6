import numpy as np


def leaky_relu(x: np.ndarray, negative_slope: float = 0.01) -> np.ndarray:
    x = x.astype(np.float64)
    return np.where(x >= 0, x, negative_slope * x)
