"""numpy reference of the corpus operator fused_add_rms_norm (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def fused_add_rms_norm(x1, x2, gamma, epsilon, scale):
    x = _f(x1) * scale + _f(x2)
    rstd = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + epsilon)
    return x * rstd * _f(gamma), rstd, x
