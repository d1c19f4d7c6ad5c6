"""numpy reference of the corpus operator apply_adam_w (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def apply_adam_w(
    var,
    m,
    v,
    beta1_power,
    beta2_power,
    lr,
    weight_decay,
    beta1,
    beta2,
    epsilon,
    grad,
    max_grad_norm,
    amsgrad,
    maximize,
):
    b1, b2, lr, wd, eps = (_f(a)[0] for a in (beta1, beta2, lr, weight_decay, epsilon))
    g = -_f(grad) if maximize else _f(grad)
    m_new = b1 * _f(m) + (1.0 - b1) * g
    v_new = b2 * _f(v) + (1.0 - b2) * g * g
    b1_t, b2_t = _f(beta1_power)[0] * b1, _f(beta2_power)[0] * b2
    v_used = np.maximum(_f(max_grad_norm), v_new) if amsgrad else v_new
    denom = np.sqrt(v_used / (1.0 - b2_t)) + eps
    var_new = _f(var) * (1.0 - lr * wd) - lr * m_new / (1.0 - b1_t) / denom
    return var_new, m_new, v_new
