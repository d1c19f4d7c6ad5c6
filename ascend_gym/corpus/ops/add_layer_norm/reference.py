"""numpy reference of the corpus operator add_layer_norm (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def add_layer_norm(x1, x2, gamma, beta, bias, epsilon, additional_output):
    x = _f(x1) + _f(x2) + (0.0 if bias is None else _f(bias))
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=axes, keepdims=True) + epsilon)
    y = (x - mean) * rstd * _f(gamma) + _f(beta)
    return y, mean, rstd, x if additional_output else np.ma.masked_all(x.shape)
