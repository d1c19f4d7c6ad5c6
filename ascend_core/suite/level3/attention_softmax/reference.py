import numpy as np


def attention_softmax(x: np.ndarray, mask: np.ndarray, scale: float) -> np.ndarray:
    s = x.astype(np.float64) * scale + mask.astype(np.float64)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
