import numpy as np


def clip(x: np.ndarray, clip_min: float = -0.5, clip_max: float = 0.5) -> np.ndarray:
    return np.minimum(np.maximum(x, clip_min), clip_max)
