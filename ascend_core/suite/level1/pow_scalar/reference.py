import numpy as np


def pow_scalar(x: np.ndarray, exponent: float = 2.5) -> np.ndarray:
    return np.power(x.astype(np.float64), exponent)
