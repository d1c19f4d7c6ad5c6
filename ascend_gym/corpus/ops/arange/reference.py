"""numpy reference of the corpus operator arange (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def arange(start, end, step):
    s, e, d = (_f(a).ravel()[0] for a in (start, end, step))
    return s + np.arange(int(np.ceil((e - s) / d))) * d
