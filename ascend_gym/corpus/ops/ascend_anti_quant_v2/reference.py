"""numpy reference of the corpus operator ascend_anti_quant_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def ascend_anti_quant_v2(x, scale, offset, dst_type, sqrt_mode):
    s = np.asarray(scale, np.float32)
    v = (
        x.astype(np.float32)
        if offset is None
        else x.astype(np.float32) + np.asarray(offset, np.float32)
    )
    v = v * s
    return v * s if sqrt_mode else v
