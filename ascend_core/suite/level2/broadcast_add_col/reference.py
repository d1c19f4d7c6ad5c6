import numpy as np


def broadcast_add_col(x: np.ndarray, b: np.ndarray) -> np.ndarray:
    return x.astype(np.float64) + b
