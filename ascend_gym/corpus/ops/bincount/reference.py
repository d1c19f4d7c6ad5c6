"""numpy reference of the corpus operator bincount (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def bincount(array, size, weights):
    counts = np.bincount(array.astype(np.int64), weights=None if weights is None else _f(weights))
    return np.pad(counts, (0, max(0, int(size.ravel()[0]) - counts.size)))
