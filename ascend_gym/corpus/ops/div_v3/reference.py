"""numpy reference of the corpus operator div_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def div_mode(x1, x2, mode):
    q = _f(x1) / _f(x2)
    if mode == 2:
        return np.floor(q)
    return np.trunc(q) if mode == 1 or x1.dtype.kind in "iu" else q
