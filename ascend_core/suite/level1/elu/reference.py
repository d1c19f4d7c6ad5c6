import numpy as np


def elu(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    x = x.astype(np.float64)
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))
