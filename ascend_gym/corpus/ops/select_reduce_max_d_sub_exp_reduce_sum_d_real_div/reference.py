"""numpy reference of the corpus operator select_reduce_max_d_sub_exp_reduce_sum_d_real_div (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def select_softmax(sel, a, b):
    v = np.where(np.asarray(sel).astype(bool), _f(a), _f(b))
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
