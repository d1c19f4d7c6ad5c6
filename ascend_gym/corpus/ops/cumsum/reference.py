"""numpy reference of the corpus operator cumsum (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def cumsum(x, axis, exclusive, reverse):
    ax = int(axis.ravel()[0])
    v = x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64)
    if reverse:
        v = np.flip(v, ax)
    r = np.cumsum(v, axis=ax)
    if exclusive:
        r = r - v
    return np.flip(r, ax) if reverse else r
