"""numpy reference of the corpus operator arg_min_with_value (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def arg_min(x, dimension, keep_dims):
    idx = np.argmin(x, axis=dimension, keepdims=keep_dims)
    val = np.min(x, axis=dimension, keepdims=keep_dims)
    return np.atleast_1d(idx), np.atleast_1d(val)
