"""numpy reference of the corpus operator celu_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def celu_v2(x, alpha):
    x = _f(x)
    return np.maximum(x, 0.0) + np.minimum(0.0, alpha * np.expm1(np.minimum(x, 0.0) / alpha))
