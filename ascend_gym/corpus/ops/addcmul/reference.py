"""numpy reference of the corpus operator addcmul (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def addcmul(input_data, x1, x2, value):
    if input_data.dtype.kind == "i":
        return input_data + value.ravel()[0] * x1 * x2
    if input_data.dtype == np.float16:
        # The authors' golden (cann-ops examples/*/gen_data.py) and the fp16 kernel step in fp16:
        # x1 * x2, * value, + input_data, each rounded to fp16.
        return input_data + x1 * x2 * np.float16(value.ravel()[0])
    return _f(input_data) + _f(value).ravel()[0] * _f(x1) * _f(x2)
