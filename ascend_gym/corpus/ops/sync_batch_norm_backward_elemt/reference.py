"""numpy reference of the corpus operator sync_batch_norm_backward_elemt (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def sync_batch_norm_backward_elemt(
    grad_output, save_input, mean, invstd, weight, mean_dy, mean_dy_xmu
):
    s = _f(invstd)
    proj = (_f(save_input) - _f(mean)) * s * s * _f(mean_dy_xmu)
    return (_f(grad_output) - _f(mean_dy) - proj) * s * _f(weight)
