"""numpy reference of the corpus operator apply_proximal_adagrad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _proximal(prox, step, l1, l2):
    return np.sign(prox) / (1.0 + step * l2) * np.maximum(np.abs(prox) - step * l1, 0.0)


def apply_proximal_adagrad(var, accum, lr, l1, l2, grad):
    g = _f(grad)
    a = _f(accum) + g * g
    eta = _f(lr)[0] / np.sqrt(a)
    return _proximal(_f(var) - eta * g, eta, _f(l1)[0], _f(l2)[0]), a
