"""numpy reference of the corpus operator bias_add (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


_CHANNEL_AXIS = {"NHWC": -1, "NDHWC": -1, "ND": -1, "NCHW": 1, "NCDHW": 1}


def bias_add(x, bias, data_format):
    axis = _CHANNEL_AXIS[data_format] % x.ndim
    shape = [1] * x.ndim
    shape[axis] = bias.size
    b = bias.reshape(shape)
    return (x + b).astype(x.dtype) if x.dtype.kind == "i" else _f(x) + _f(b)
