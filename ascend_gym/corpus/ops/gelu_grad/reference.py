"""numpy reference of the corpus operator gelu_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def gelu_grad(dy, x, y):
    x = _f(x)
    k = np.sqrt(2.0 / np.pi)
    inner = k * (x + 0.044715 * x**3)
    t = np.tanh(inner)
    d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * x * x)
    return _f(dy) * d
