"""numpy reference of the corpus operator glu (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def glu(x, dim):
    a, b = np.split(np.asarray(x, np.float64), 2, axis=dim)
    return a / (1.0 + np.exp(-b))
