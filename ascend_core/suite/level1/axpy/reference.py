import numpy as np


def axpy(x: np.ndarray, y: np.ndarray, alpha: float = 2.0) -> np.ndarray:
    return alpha * x.astype(np.float64) + y
