"""numpy reference of the corpus operator nll_loss (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def nll_loss(x, target, weight, reduction, ignore_index):
    rows = np.arange(x.shape[0])
    keep = target != ignore_index
    t = np.where(keep, target, 0)
    w = np.where(keep, _f(weight)[t], 0.0)
    loss = -w * _f(x)[rows, t]
    if reduction == "none":
        return loss
    return np.array([loss.sum() / w.sum() if reduction == "mean" else loss.sum()])


def nll_loss_total_weight(x, target, weight, reduction, ignore_index):
    """nll_loss with its second output: the summed weight of the rows not ignored, for every
    reduction (hicann/ops-nn nll_loss README and aclnnNLLLoss docs)."""
    keep = target != ignore_index
    total = np.where(keep, _f(weight)[np.where(keep, target, 0)], 0.0).sum()
    return nll_loss(x, target, weight, reduction, ignore_index), np.array([total])
