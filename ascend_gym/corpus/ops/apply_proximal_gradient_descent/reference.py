"""numpy reference of the corpus operator apply_proximal_gradient_descent (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _proximal(prox, step, l1, l2):
    return np.sign(prox) / (1.0 + step * l2) * np.maximum(np.abs(prox) - step * l1, 0.0)


def apply_proximal_gradient_descent(var, alpha, l1, l2, delta):
    a = _f(alpha)[0]
    return _proximal(_f(var) - a * _f(delta), a, _f(l1)[0], _f(l2)[0])
