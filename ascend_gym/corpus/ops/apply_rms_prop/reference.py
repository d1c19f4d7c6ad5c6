"""numpy reference of the corpus operator apply_rms_prop (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_rms_prop(var, ms, mom, grad, lr, rho, momentum, epsilon):
    g = _f(grad)
    ms_new = _f(ms) + (1.0 - rho) * (g * g - _f(ms))
    mom_new = momentum * _f(mom) + lr * g / np.sqrt(epsilon + ms_new)
    return _f(var) - mom_new, ms_new, mom_new
