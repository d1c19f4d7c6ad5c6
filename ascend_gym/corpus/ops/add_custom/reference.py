"""numpy reference of the corpus operator add_custom (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def add(x, y):
    return x.astype(np.float64) + y if x.dtype.kind == "f" else (x + y).astype(x.dtype)
