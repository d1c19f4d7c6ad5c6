"""numpy reference of the corpus operator apply_adagrad_d (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_adagrad_d(var, accum, lr, grad, update_slots, use_locking):
    g = _f(grad)
    a = _f(accum) + g * g if update_slots else _f(accum)
    return _f(var) - _f(lr)[0] * g / np.sqrt(a), a
