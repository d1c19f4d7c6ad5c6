"""numpy reference of the corpus operator log_sum_exp (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def log_sum_exp(x, dim, keep_dim):
    x = _f(x)
    axes = tuple(dim) if len(dim) else None
    m = x.max(axis=axes, keepdims=True)
    r = np.log(np.exp(x - m).sum(axis=axes, keepdims=True)) + m
    return r if keep_dim else np.squeeze(r, axis=axes)
