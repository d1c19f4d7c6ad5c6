"""numpy reference of the corpus operator split_v (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def split_v(x, size_splits, split_dim, num_split):
    return tuple(np.split(x, np.cumsum(size_splits.astype(np.int64))[:-1], axis=int(split_dim[0])))
