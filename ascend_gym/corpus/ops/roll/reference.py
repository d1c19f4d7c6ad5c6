"""numpy reference of the corpus operator roll (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def roll(x, shifts, dims):
    if not dims:
        return np.roll(x.ravel(), shifts[0]).reshape(x.shape)
    return np.roll(x, shifts, axis=dims)
