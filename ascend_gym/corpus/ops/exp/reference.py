"""numpy reference of the corpus operator exp (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def exp(x, base, scale, shift):
    if np.asarray(x).dtype == np.float16:
        # The authors' golden (cann-ops examples/*/gen_data.py) and the fp16 kernel compute in fp16
        # step by step: x * scale, + shift, * ln(base), then exp, each rounded to fp16.
        z = np.asarray(x, np.float16) * np.float16(scale) + np.float16(shift)
        if base != -1.0:
            z = z * np.float16(np.log(base))
        return np.exp(_f(z))
    z = scale * _f(x) + shift
    return np.exp(z) if base == -1.0 else np.power(base, z)
