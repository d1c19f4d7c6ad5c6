"""numpy reference of the corpus operator neg (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def neg(x):
    return -x if x.dtype.kind != "i" else (-x.astype(np.int64)).astype(x.dtype)
