"""numpy reference of the corpus operator relu (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def relu(x):
    return np.maximum(x, 0).astype(x.dtype) if x.dtype.kind in "iu" else np.maximum(_f(x), 0.0)
