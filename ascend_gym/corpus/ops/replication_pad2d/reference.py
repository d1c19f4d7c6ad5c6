"""numpy reference of the corpus operator replication_pad2d (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def replication_pad2d(x, paddings):
    left, right, top, bottom = (int(v) for v in paddings)
    width = [(0, 0)] * (x.ndim - 2) + [(top, bottom), (left, right)]
    return np.pad(x, width, mode="edge")
