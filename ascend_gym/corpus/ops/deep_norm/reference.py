"""numpy reference of the corpus operator deep_norm (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def deep_norm(x, gx, beta, gamma, alpha, epsilon):
    xs = alpha * _f(x) + _f(gx)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    mean = xs.mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(((xs - mean) ** 2).mean(axis=axes, keepdims=True) + epsilon)
    return mean, rstd, (xs - mean) * rstd * _f(gamma) + _f(beta)
