"""numpy reference of the corpus operator sigmoid_cross_entropy_with_logits_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def sigmoid_cross_entropy_with_logits_v2(predict, target, weight, pos_weight):
    x, t = _f(predict), _f(target)
    log_term = np.logaddexp(0.0, -x)  # log(1 + exp(-x)), stable
    lw = 1.0 if pos_weight is None else (_f(pos_weight) - 1.0) * t + 1.0
    loss = (1.0 - t) * x + lw * log_term
    return loss if weight is None else loss * _f(weight)
