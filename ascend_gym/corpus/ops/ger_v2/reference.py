"""numpy reference of the corpus operator ger_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def ger(x, y, A, alpha):
    if A.dtype.kind == "i":
        return (A + int(alpha) * np.outer(x, y)).astype(A.dtype)
    return alpha * np.outer(_f(x), _f(y)) + _f(A)
