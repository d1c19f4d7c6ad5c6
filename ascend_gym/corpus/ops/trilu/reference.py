"""numpy reference of the corpus operator trilu (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def trilu(x, diagonal, upper):
    return np.triu(x, diagonal) if upper else np.tril(x, diagonal)
