"""numpy reference of the corpus operator mul_sigmoid (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def mul_sigmoid(x1, x2, t1, t2, t3):
    s = 1.0 / (1.0 + np.exp(-_f(x1) * t1))
    out = np.where(s < t2, s, 2.0 * s) * _f(x2).reshape(1, -1) * t3
    return out.reshape(x1.shape[0], -1, 128)
