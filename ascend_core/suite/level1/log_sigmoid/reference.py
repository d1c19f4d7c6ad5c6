import numpy as np


def log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0, -x.astype(np.float64))
