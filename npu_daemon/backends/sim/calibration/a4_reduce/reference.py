import numpy as np


def total(x: np.ndarray, whole_only: int) -> np.ndarray:
    """z = [sum(x)], accumulated in float64."""
    return np.array([x.astype(np.float64).sum()], dtype=x.dtype)
