"""numpy reference of the corpus operator assign_sub (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def assign_sub(var, value):
    if var.dtype.kind in "iu":  # integer arithmetic wraps
        return (var - value).astype(var.dtype)
    return _f(var) - _f(value)
