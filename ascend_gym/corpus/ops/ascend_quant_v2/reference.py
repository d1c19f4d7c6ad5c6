"""numpy reference of the corpus operator ascend_quant_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64,
rounded to each output's dtype by the checker."""

import numpy as np

_ROUND = {"round": np.rint, "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc}


def ascend_quant_v2(x, scale, offset, sqrt_mode, round_mode, dst_type, axis):
    shape = [1] * x.ndim
    shape[axis] = -1
    s = np.asarray(scale, np.float64).reshape(shape)
    v = np.asarray(x, np.float64) * s * (s if sqrt_mode else 1.0)
    if offset is not None:
        v = v + np.asarray(offset, np.float64).reshape(shape)
    return np.clip(_ROUND[round_mode](v), -128, 127)
