"""numpy reference of the corpus operator split (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def split(x, indices_or_sections, axis):
    ios = indices_or_sections
    return tuple(np.split(x, ios[0] if len(ios) == 1 else ios, axis=axis))
