import numpy as np


def swiglu(x: np.ndarray) -> np.ndarray:
    a, b = np.split(x.astype(np.float64), 2, axis=-1)
    return a / (1 + np.exp(-a)) * b
