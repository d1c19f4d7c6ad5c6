"""numpy reference of the corpus operator sigmoid_cross_entropy_with_logits_grad_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def sigmoid_cross_entropy_with_logits_grad_v2(predict, target, dout, weight, pos_weight, reduction):
    t = _f(target)
    p = 1.0 / (1.0 + np.exp(-_f(predict)))
    lw = t if pos_weight is None else _f(pos_weight) * t  # README: p - target without pos_weight
    g = ((lw + 1.0 - t) * p - lw) * _f(dout)
    g = g if weight is None else g * _f(weight)
    return g / predict.size if reduction == "mean" else g
