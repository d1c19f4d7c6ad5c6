"""numpy reference of the corpus operator add_sigmoid_mul_reduce_sum_d (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def add_sigmoid_mul_reduce_sum_d(a1, a2, a3, a4, a5):
    sig = 1.0 / (1.0 + np.exp(-(_f(a1) + _f(a2)) * _f(a3).ravel()[0]))
    return (sig * _f(a4) * _f(a5)).sum(axis=1)
