"""numpy reference of the corpus operator swiglu_clamp (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # no overflow for large |x|


def swiglu_clamp(x, limit):
    x = _f(x)
    gate, up = np.split(x, 2, axis=-1)
    return np.minimum(gate * _sigmoid(gate), limit) * np.clip(up, -limit, limit)
