"""numpy reference of the corpus operator apply_adadelta (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_adadelta(var, accum, accum_update, grad, lr, rho, epsilon):
    g = _f(grad)
    a = rho * _f(accum) + (1.0 - rho) * g * g
    update = np.sqrt(_f(accum_update) + epsilon) / np.sqrt(a + epsilon) * g
    return _f(var) - lr * update, a, rho * _f(accum_update) + (1.0 - rho) * update * update
