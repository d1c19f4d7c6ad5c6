"""numpy reference of the corpus operator lp_loss (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _loss_reduce(loss, reduction):
    if reduction == "none":
        return loss
    return np.array([loss.sum() if reduction == "sum" else loss.mean()])


def lp_loss(predict, label, p, reduction):
    return _loss_reduce(np.abs(_f(predict) - _f(label)) ** p, reduction)
