"""numpy reference of the corpus operator add_rms_norm (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def add_rms_norm(x1, x2, gamma, epsilon):
    # The sum is an output in the inputs' dtype, and the device normalises that rounded sum.
    x = (np.asarray(x1, np.float64) + np.asarray(x2, np.float64)).astype(x1.dtype)
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    return xf * rstd * np.asarray(gamma, np.float64), rstd, xf
