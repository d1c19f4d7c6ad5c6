import numpy as np


def indirect_sum(data: np.ndarray, indices: np.ndarray, preload: int = 0) -> np.ndarray:
    """The sum of the bytes at the given offsets, wrapping as the kernel's uint32 does; preloading
    the lines first (anchor S3) changes only its time."""
    return np.array([data[indices].astype(np.uint64).sum() % 2**32], dtype=np.uint32)
