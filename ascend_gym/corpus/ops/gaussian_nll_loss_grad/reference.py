"""numpy reference of the corpus operator gaussian_nll_loss_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def gaussian_nll_loss_grad(grad_output, input, target, var, full, eps, reduction):
    d, v = _f(input) - _f(target), np.maximum(_f(var), eps)
    g = _f(grad_output) / (input.size if reduction == "mean" else 1)
    return g * d / v, g * 0.5 * (1.0 / v - d * d / (v * v))
