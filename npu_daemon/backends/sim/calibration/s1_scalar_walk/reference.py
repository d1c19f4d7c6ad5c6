import numpy as np


def walk(x: np.ndarray, stride: int, reads: int) -> np.ndarray:
    """The kernel's sum, in its order: element 0, stride, 2 * stride, ..., added one by one."""
    return np.cumsum(x[::stride][:reads], dtype=np.float32)[-1:]
