"""numpy reference of the corpus operator elu_grad_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def neg(x):
    return -x if x.dtype.kind != "i" else (-x.astype(np.int64)).astype(x.dtype)


def elu_grad_v2(dy, x, alpha, scale, input_scale, is_result):
    dy, x = _f(dy), _f(x)
    if is_result:
        neg = dy * input_scale * (x + alpha * scale)
    else:
        neg = dy * alpha * scale * input_scale * np.exp(np.minimum(x, 0.0) * input_scale)
    return np.where(x > 0, dy * scale, neg)
