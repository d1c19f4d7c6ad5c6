import numpy as np


def mish(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return x * np.tanh(np.logaddexp(0, x))
