"""numpy reference of the corpus operator is_close (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def is_close(x1, x2, rtol, atol, equal_nan):
    a, b = _f(x1), _f(x2)
    close = np.abs(a - b) <= atol + rtol * np.abs(b)
    return close | (equal_nan & np.isnan(a) & np.isnan(b))
