import numpy as np


def rsqrt(x: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(x.astype(np.float64))
