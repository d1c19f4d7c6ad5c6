"""numpy reference of the corpus operator elu_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def elu_grad(grads, activations):
    return (np.minimum(_f(activations), 0.0) + 1.0) * _f(grads)
