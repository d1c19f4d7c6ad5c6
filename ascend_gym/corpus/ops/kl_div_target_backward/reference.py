"""numpy reference of the corpus operator kl_div_target_backward (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def kl_div_target_backward(grad_output, self, target, reduction, log_target):
    t = _f(target)
    if log_target:
        return _f(grad_output) * np.exp(t) * (t + 1.0 - _f(self))
    return _f(grad_output) * (np.log(t) + 1.0 - _f(self))
