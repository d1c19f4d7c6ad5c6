import numpy as np


def l2_norm(x: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    x = x.astype(np.float64)
    return x / np.maximum(np.sqrt((x * x).sum(axis=-1, keepdims=True)), eps)
