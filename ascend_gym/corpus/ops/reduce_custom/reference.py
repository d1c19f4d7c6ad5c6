"""numpy reference of the corpus operator reduce_custom (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def reduce_custom(x):
    z = np.ma.masked_all(32, np.float64)  # the sample writes the sum into z[0] only
    z[0] = _f(x).sum()
    return z
