"""numpy reference of the corpus operator lp_norm_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def lp_norm_v2(x, p, axes, keepdim, epsilon):
    ax = tuple(axes) if len(axes) else None
    r = (np.abs(_f(x)) ** p).sum(axis=ax, keepdims=keepdim) ** (1.0 / p)
    return np.maximum(r, epsilon)
