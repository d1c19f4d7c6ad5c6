"""numpy reference of the corpus operator sync_batch_norm_backward_reduce (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def sync_batch_norm_backward_reduce(sum_dy, sum_dy_dx_pad, mean, invert_std):
    xmu = _f(sum_dy_dx_pad) - _f(mean) * _f(sum_dy)
    return xmu, xmu * _f(invert_std)
