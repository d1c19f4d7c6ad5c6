"""numpy reference of the corpus operator relu_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def relu(x):
    return np.maximum(x, 0).astype(x.dtype) if x.dtype.kind in "iu" else np.maximum(_f(x), 0.0)


def relu_v3(x):
    # the mask packs 8 elements a byte along the last axis, element 8k + j in bit j
    return relu(x), np.packbits(x > 0, axis=-1, bitorder="little")
