"""numpy reference of the corpus operator mul_sigmoid_mul_add_custom (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def mul_sigmoid_mul_add(input, mulscalar1, mulscalar2, addscalar3):
    return 1.0 / (1.0 + np.exp(-_f(input) * _f(mulscalar1))) * _f(mulscalar2) + _f(addscalar3)
