"""numpy reference of the corpus operator adam_apply_one_with_decay (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def adam_apply_one_with_decay(
    input0, input1, input2, input3, input4, mul0_x, mul1_x, mul2_x, mul3_x, mul4_x, add2_y
):
    g, v, m, var, lr = (_f(a) for a in (input0, input1, input2, input3, input4))
    out0 = g * g * _f(mul3_x) + v * _f(mul2_x)
    out1 = m * _f(mul0_x) + g * _f(mul1_x)
    return out0, out1, var - (out1 / (np.sqrt(out0) + _f(add2_y)) + var * _f(mul4_x)) * lr
