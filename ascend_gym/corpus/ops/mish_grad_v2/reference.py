"""numpy reference of the corpus operator mish_grad_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # no overflow for large |x|


def _softplus(x):
    return np.logaddexp(0.0, x)


def mish_grad(grad, x, tanhx=None):
    x = _f(x)
    t = np.tanh(_softplus(x)) if tanhx is None else _f(tanhx)
    return _f(grad) * (t + x * (1.0 - t * t) * _sigmoid(x))
