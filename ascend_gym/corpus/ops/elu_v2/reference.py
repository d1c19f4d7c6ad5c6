"""numpy reference of the corpus operator elu_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def elu_v2(x, alpha, scale, inputScale):
    x = _f(x)
    return np.where(x > 0, scale * x, scale * alpha * np.expm1(np.minimum(x, 0.0) * inputScale))
