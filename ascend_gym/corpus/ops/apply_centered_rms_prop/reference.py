"""numpy reference of the corpus operator apply_centered_rms_prop (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    lr, rho, mu, eps, g = _f(lr)[0], _f(rho)[0], _f(momentum)[0], _f(epsilon)[0], _f(grad)
    mg_new = rho * _f(mg) + (1.0 - rho) * g
    ms_new = rho * _f(ms) + (1.0 - rho) * g * g
    mom_new = mu * _f(mom) + lr * g / np.sqrt(ms_new - mg_new * mg_new + eps)
    return _f(var) - mom_new, mg_new, ms_new, mom_new
