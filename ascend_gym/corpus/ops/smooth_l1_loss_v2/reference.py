"""numpy reference of the corpus operator smooth_l1_loss_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _loss_reduce(loss, reduction):
    if reduction == "none":
        return loss
    return np.array([loss.sum() if reduction == "sum" else loss.mean()])


def smooth_l1_loss_v2(predict, label, sigma, reduction):
    a = np.abs(_f(predict) - _f(label))
    m = np.minimum(a, sigma)
    return _loss_reduce(m * m / (2.0 * sigma) + (a - m), reduction)
