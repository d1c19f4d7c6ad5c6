"""numpy reference of the corpus operator gelu_grad_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def gelu_grad_v2(dy, x, approximate):
    dy, x = _f(dy), _f(x)
    if approximate == "tanh":
        k = np.sqrt(2.0 / np.pi)
        t = np.tanh(k * (x + 0.044715 * x**3))
        d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * x * x)
    else:
        from math import erf

        phi = 0.5 * (1.0 + np.vectorize(erf)(x / np.sqrt(2.0)))
        d = phi + x * np.exp(-0.5 * x * x) / np.sqrt(2.0 * np.pi)
    return dy * d


def erf(x):
    from scipy import special

    return special.erf(_f(x))
