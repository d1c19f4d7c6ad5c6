"""numpy reference of the corpus operator sort_with_index (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _sorted(x, index, axis, descending):
    key = -_f(x) if descending else x
    order = np.argsort(key, axis=axis, kind="stable")
    return np.take_along_axis(x, order, axis), np.take_along_axis(index, order, axis)


def sort_with_index(x, index, axis, descending, stable):
    return _sorted(x, index, axis, descending)
