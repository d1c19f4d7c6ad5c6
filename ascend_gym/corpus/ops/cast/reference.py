"""numpy reference of the corpus operator cast (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def cast(x, dst_type):
    x = _f(x)
    return np.trunc(x) if dst_type in (2, 3, 4, 6, 9) else x  # integer targets truncate toward zero
