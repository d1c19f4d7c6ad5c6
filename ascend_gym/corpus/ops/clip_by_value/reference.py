"""numpy reference of the corpus operator clip_by_value (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def clip_by_value(x, clip_value_min, clip_value_max):
    return np.minimum(np.maximum(x, clip_value_min.ravel()[0]), clip_value_max.ravel()[0])
