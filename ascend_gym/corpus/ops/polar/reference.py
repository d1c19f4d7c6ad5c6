"""numpy reference of the corpus operator polar (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def angle(x):
    return np.where(_f(x) < 0, np.pi, 0.0)


def polar(input, angle):
    return _f(input) * np.exp(1j * _f(angle))
