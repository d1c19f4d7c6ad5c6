"""numpy reference of the corpus operator rms_norm_quant (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def rms_norm_quant(
    x, gamma, beta, scale, offset, epsilon, high_precision_mode, gemma_mode, dst_type
):
    xf = _f(x)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    q = xf / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon) * _f(gamma) + _f(beta)
    return np.clip(np.rint(q / _f(scale)[0] + _f(offset)[0]), -128, 127)
