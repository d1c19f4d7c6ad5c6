import numpy as np


def merge(x: np.ndarray) -> np.ndarray:
    """Each 512 floats hold four lists of 64 (score, index) pairs; the merge takes, pair by pair,
    the list head with the highest score, the earlier list on ties (lists need not be sorted)."""
    out = np.empty_like(x).reshape(-1, 256, 2)
    for r, lists in enumerate(x.reshape(-1, 4, 64, 2)):
        taken = [0, 0, 0, 0]
        for n in range(256):
            k = max(
                (k for k in range(4) if taken[k] < 64), key=lambda k: (lists[k, taken[k], 0], -k)
            )
            out[r, n] = lists[k, taken[k]]
            taken[k] += 1
    return out.reshape(-1)
