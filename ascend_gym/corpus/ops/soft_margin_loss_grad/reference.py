"""numpy reference of the corpus operator soft_margin_loss_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def soft_margin_loss_grad(x, y, grad_out, reduction):
    e = np.exp(-_f(y) * _f(x))
    g = -_f(y) * e / (1.0 + e) * _f(grad_out)
    return g / x.size if reduction == "mean" else g
