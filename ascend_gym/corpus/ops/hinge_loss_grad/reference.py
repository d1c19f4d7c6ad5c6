"""numpy reference of the corpus operator hinge_loss_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def hinge_loss_grad(predict, target, grad_output):
    t = _f(target)
    return np.where(1.0 - t * _f(predict) > 0, -t * _f(grad_output), 0.0)
