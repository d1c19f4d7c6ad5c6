"""numpy reference of the corpus operator fatrelu_mul (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def fatrelu_mul(x, threshold):
    x = np.asarray(x, np.float64)
    x1, x2 = np.split(x, 2, axis=-1)
    return np.where(x1 < float(np.asarray(threshold).reshape(-1)[0]), 0.0, x1) * x2
