"""numpy reference of the corpus operator fill (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def fill(dims, value):
    return np.full([int(d) for d in np.asarray(dims).ravel()], np.asarray(value).ravel()[0])
