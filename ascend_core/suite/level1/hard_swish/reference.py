import numpy as np


def hard_swish(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    return x * np.clip(x + 3, 0, 6) / 6
