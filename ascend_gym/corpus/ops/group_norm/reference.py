"""numpy reference of the corpus operator group_norm (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def group_norm(x, gamma, beta, num_groups, eps):
    n, c = x.shape[:2]
    g = _f(x).reshape(n, num_groups, -1)
    mean = g.mean(axis=2)
    rstd = 1.0 / np.sqrt(g.var(axis=2) + eps)
    y = ((g - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    per_channel = (1, c) + (1,) * (x.ndim - 2)
    y = y if gamma is None else y * _f(gamma).reshape(per_channel)
    y = y if beta is None else y + _f(beta).reshape(per_channel)
    return y, mean, rstd
