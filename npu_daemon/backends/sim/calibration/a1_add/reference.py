import numpy as np


def add(x: np.ndarray, y: np.ndarray, **_schedule) -> np.ndarray:
    """The attrs only choose the schedule (cores, tile, buffering): the result is x + y."""
    return (x.astype(np.float32) + y.astype(np.float32)).astype(x.dtype)
