"""numpy reference of the corpus operator swi_glu_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def swi_glu_grad(y_grad, x, dim):
    a, b = np.split(_f(x), 2, axis=dim)
    s = 1.0 / (1.0 + np.exp(-a))
    g = _f(y_grad)
    return np.concatenate([g * b * (s + a * s * (1.0 - s)), g * a * s], axis=dim)
