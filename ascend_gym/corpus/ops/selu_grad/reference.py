"""numpy reference of the corpus operator selu_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def selu_grad(gradients, outputs):
    out = _f(outputs)
    # the README's branches: scale for outputs >= 0 (numerically, so -0.0 too)
    return _f(gradients) * np.where(out >= 0, _SELU_SCALE, out + _SELU_SCALE * _SELU_ALPHA)
