"""numpy reference of the corpus operator logit (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def logit(x, eps):
    z = np.asarray(x, np.float64)
    if eps >= 0:
        z = np.clip(z, eps, 1.0 - eps)
    return np.log(z / (1.0 - z))
