import numpy as np


def cross_entropy_loss(logits: np.ndarray, target: np.ndarray, ignore_index: int) -> np.ndarray:
    """F.cross_entropy(logits, target, ignore_index=ignore_index, reduction="mean") as a [1] array.

    Rows whose target is ignore_index or no class index are left out of both the sum and the count;
    with no row left the mean is 0 / 0 = NaN, as PyTorch gives.
    """
    x = logits.astype(np.float64)
    valid = (target != ignore_index) & (target >= 0) & (target < x.shape[-1])
    x, t = x[valid], target[valid].astype(np.int64)
    if t.size == 0:
        return np.array([np.nan])
    m = x.max(axis=-1)
    lse = m + np.log(np.exp(x - m[:, None]).sum(axis=-1))
    return np.array([(lse - x[np.arange(t.size), t]).mean()])
