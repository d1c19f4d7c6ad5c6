"""numpy reference of the corpus operator kl_div_loss_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def kl_div_loss_grad(grad, input, target, reduction, log_target):
    coeff = {"mean": 1.0 / input.size, "batchmean": 1.0 / input.shape[0]}.get(reduction, 1.0)
    t = np.exp(_f(target)) if log_target else _f(target)
    return -_f(grad) * t * coeff
