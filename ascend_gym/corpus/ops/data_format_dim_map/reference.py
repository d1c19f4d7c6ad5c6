"""numpy reference of the corpus operator data_format_dim_map (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def data_format_dim_map(x, src_format, dst_format):
    n = len(src_format)
    table = np.array([dst_format.index(c) for c in src_format])
    return table[np.mod(x.astype(np.int64), n)]
