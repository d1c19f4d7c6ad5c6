"""numpy reference of the corpus operator range (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def range_(start, end, step):
    return np.arange(float(start[0]), float(end[0]), float(step[0]))
