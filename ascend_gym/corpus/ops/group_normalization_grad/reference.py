"""numpy reference of the corpus operator group_normalization_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def group_normalization_grad(x, dy, gamma, mean, rstd):
    m = x.shape[2]
    r, dy, gm = _f(rstd)[..., None], _f(dy), _f(gamma)
    xhat = (_f(x) - _f(mean)[..., None]) * r
    s1 = (dy * gm).sum(axis=2, keepdims=True)
    s2 = (dy * gm * xhat).sum(axis=2, keepdims=True)
    return r / m * gm * (m * dy - s1 - xhat * s2)
