"""numpy reference of the corpus operator apply_adamax (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_adamax(var, m, v, grad, beta1Power, lr, beta1, beta2, epsilon):
    g = _f(grad)
    m_new = beta1 * _f(m) + (1.0 - beta1) * g
    v_new = np.maximum(beta2 * _f(v), np.abs(g))
    return _f(var) - lr / (1.0 - beta1Power) * m_new / (v_new + epsilon), m_new, v_new
