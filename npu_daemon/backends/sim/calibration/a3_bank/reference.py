import numpy as np


def double(x: np.ndarray, variant: int, adds: int) -> np.ndarray:
    """Every Add computes x + x into the same destination: the result is 2x whatever the layout."""
    return x + x
