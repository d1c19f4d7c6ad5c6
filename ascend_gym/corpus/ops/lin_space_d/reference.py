"""numpy reference of the corpus operator lin_space_d (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def lin_space_d(start, end, num):
    return np.linspace(_f(start).ravel()[0], _f(end).ravel()[0], int(num.ravel()[0]))
