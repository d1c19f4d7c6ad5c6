"""numpy reference of the corpus operator pows (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32); computed in float64, rounded to each output's dtype
by the checker."""

import numpy as np


def pows(x1, x2):
    return np.power(np.asarray(x1, np.float64), np.asarray(x2, np.float64).reshape(-1)[0])
