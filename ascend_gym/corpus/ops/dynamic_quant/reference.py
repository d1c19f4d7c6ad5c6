"""numpy reference of the corpus operator dynamic_quant (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64,
rounded to each output's dtype by the checker."""

import numpy as np


def dynamic_quant(x, smooth_scales, group_index, dst_type):
    v = np.asarray(x, np.float64)
    if smooth_scales is not None:
        v = v * np.asarray(smooth_scales, np.float64)
    scale = np.abs(v).max(axis=-1, keepdims=True) / 127.0
    return np.clip(np.rint(v / scale), -128, 127), scale[..., 0]
