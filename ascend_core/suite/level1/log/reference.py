import numpy as np


def log(x: np.ndarray) -> np.ndarray:
    return np.log(x.astype(np.float64))
