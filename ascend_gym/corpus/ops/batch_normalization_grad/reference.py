"""numpy reference of the corpus operator batch_normalization_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def batch_normalization_grad(grad_output, input, weight, bias, save_mean, save_invstd, epsilon):
    axes = (0,) + tuple(range(2, input.ndim))
    shape = (1, -1) + (1,) * (input.ndim - 2)
    g, s = _f(grad_output), _f(save_invstd).reshape(shape)
    xhat = (_f(input) - _f(save_mean).reshape(shape)) * s
    mean_g = g.mean(axis=axes, keepdims=True)
    mean_gx = (g * xhat).mean(axis=axes, keepdims=True)
    grad_input = _f(weight).reshape(shape) * s * (g - mean_g - xhat * mean_gx)
    return grad_input, (g * xhat).sum(axis=axes), g.sum(axis=axes)
