"""numpy reference of the corpus operator bn_infer_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def bn_infer_grad(grads, scale, batch_variance, epsilon, format_mode):
    shape = (1, -1, 1, 1) if format_mode == 0 else (1, 1, 1, -1)
    k = _f(scale) / np.sqrt(_f(batch_variance) + epsilon)
    return _f(grads) * k.reshape(shape)
