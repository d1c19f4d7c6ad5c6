"""numpy reference of the corpus operator layer_normalization_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def layer_normalization_grad(dy, x, gamma, mean, rstd):
    dy, rstd = _f(dy), _f(rstd)[:, None]
    x_hat = (_f(x) - _f(mean)[:, None]) * rstd
    dxhat = dy * _f(gamma)
    ds = (dxhat * x_hat).sum(axis=1, keepdims=True)
    db = dxhat.sum(axis=1, keepdims=True)
    dx = rstd * (dxhat - (db + ds * x_hat) / x.shape[1])
    return dx, (dy * x_hat).sum(axis=0), dy.sum(axis=0)
