"""numpy reference of the corpus operator isin_part_v1 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def isin_part_v1(value, index, elementsNum):
    n = int(elementsNum.ravel()[0])
    combined = np.empty_like(value)
    combined[index] = value
    return np.isin(combined[:n], combined[n:])
