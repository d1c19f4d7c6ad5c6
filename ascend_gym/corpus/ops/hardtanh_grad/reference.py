"""numpy reference of the corpus operator hardtanh_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def hardtanh_grad(result, grad, min_val, max_val):
    r = _f(result)
    return np.where((r >= min_val) & (r <= max_val), _f(grad), 0.0)
