"""numpy reference of the corpus operator squared_relu (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def squared_relu(x):
    return np.maximum(np.asarray(x, np.float64), 0.0) ** 2
