import numpy as np


def neg(x: np.ndarray) -> np.ndarray:
    return -x
