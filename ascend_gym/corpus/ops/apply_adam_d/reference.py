"""numpy reference of the corpus operator apply_adam_d (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_adam_d(
    var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking, use_nesterov
):
    b1, b2, eps, g = _f(beta1)[0], _f(beta2)[0], _f(epsilon)[0], _f(grad)
    lr_t = _f(lr)[0] * np.sqrt(1.0 - _f(beta2_power)[0]) / (1.0 - _f(beta1_power)[0])
    m_new = _f(m) + (1.0 - b1) * (g - _f(m))
    v_new = _f(v) + (1.0 - b2) * (g * g - _f(v))
    step = m_new * b1 + (1.0 - b1) * g if use_nesterov else m_new
    return _f(var) - lr_t * step / (eps + np.sqrt(v_new)), m_new, v_new
