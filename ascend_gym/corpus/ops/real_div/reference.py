"""numpy reference of the corpus operator real_div (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def real_div(x1, x2):
    # docs/aclnnRealDiv.md: a floating division; an int32 result keeps its integer part
    q = _f(x1) / _f(x2)
    return np.trunc(q) if x1.dtype.kind == "i" else q
