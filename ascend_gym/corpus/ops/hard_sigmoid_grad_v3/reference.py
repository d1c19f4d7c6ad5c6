"""numpy reference of the corpus operator hard_sigmoid_grad_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def hard_sigmoid_grad(grad, x):
    x = _f(x)
    return np.where((x > -3) & (x < 3), _f(grad) / 6.0, 0.0)
