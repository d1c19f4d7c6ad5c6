"""numpy reference of the corpus operator histogram (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def histogram(x, bins, min, max):
    lo, hi = (min, max) if min != max else (float(x.min()), float(x.max()))
    counts, _ = np.histogram(_f(x), bins=bins, range=(lo, hi))
    return counts
