"""numpy reference of the corpus operator apply_ftrl (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power):
    lr, l1, l2, p = _f(lr)[0], _f(l1)[0], _f(l2)[0], _f(lr_power)[0]
    g, a = _f(grad), _f(accum)
    a_new = a + g * g
    lin = _f(linear) + g - (a_new**-p - a**-p) / lr * _f(var)
    quadratic = a_new**-p / lr + 2.0 * l2
    return np.where(np.abs(lin) > l1, (np.sign(lin) * l1 - lin) / quadratic, 0.0)
