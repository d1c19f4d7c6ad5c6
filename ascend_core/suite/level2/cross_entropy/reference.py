import numpy as np


def cross_entropy(x: np.ndarray, target: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    top = x.max(axis=-1, keepdims=True)
    lse = (top + np.log(np.exp(x - top).sum(axis=-1, keepdims=True)))[:, 0]
    return lse - x[np.arange(x.shape[0]), target]
