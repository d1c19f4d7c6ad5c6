import numpy as np


def group_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, num_groups: int, eps: float) -> np.ndarray:
    n, c = x.shape[:2]
    g = x.astype(np.float64).reshape(n, num_groups, -1)
    g = (g - g.mean(axis=-1, keepdims=True)) / np.sqrt(g.var(axis=-1, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return g.reshape(x.shape) * gamma.astype(np.float64).reshape(shape) + beta.astype(np.float64).reshape(shape)
