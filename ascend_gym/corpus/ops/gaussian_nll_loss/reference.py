"""numpy reference of the corpus operator gaussian_nll_loss (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _loss_reduce(loss, reduction):
    if reduction == "none":
        return loss
    return np.array([loss.sum() if reduction == "sum" else loss.mean()])


def gaussian_nll_loss(input, target, var, full, eps, reduction):
    v = np.maximum(_f(var), eps)
    loss = 0.5 * (np.log(v) + (_f(input) - _f(target)) ** 2 / v)
    return _loss_reduce(loss + (0.5 * np.log(2.0 * np.pi) if full else 0.0), reduction)
