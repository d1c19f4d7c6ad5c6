"""numpy reference of the corpus operator sqrt_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def sqrt_grad(y, dy):
    # README: tmp = 0.5 * dy; z = tmp != 0 ? tmp / y : 0
    tmp = 0.5 * _f(dy)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(tmp != 0, tmp / _f(y), 0.0)
