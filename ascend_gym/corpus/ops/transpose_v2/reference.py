"""numpy reference of the corpus operator transpose_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32)."""

import numpy as np


def transpose_v2(x, perm):
    return np.transpose(x, [int(p) for p in np.asarray(perm).reshape(-1)])
