"""numpy reference of the corpus operator ge_glu_grad_v2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def gelu(x):
    x = _f(x)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def _gelu_derivative(g, approximate):
    if approximate == 1:  # tanh form
        k = np.sqrt(2.0 / np.pi)
        t = np.tanh(k * (g + 0.044715 * g**3))
        return 0.5 * (1.0 + t) + 0.5 * g * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * g * g)
    from scipy import special

    return 0.5 * (1.0 + special.erf(g / np.sqrt(2.0))) + g * np.exp(-0.5 * g * g) / np.sqrt(
        2.0 * np.pi
    )


def ge_glu_grad_v2(dy, x, gelu, dim, approximate, activate_left):
    # The backward of ge_glu_v2 with its forward output `gelu` given: the plain half's gradient is
    # dy * gelu, the activated half's dy * other * GELU'(gate).
    a, b = np.split(_f(x), 2, axis=dim)
    gate, other = (a, b) if activate_left else (b, a)
    d_gate = _f(dy) * other * _gelu_derivative(gate, approximate)
    d_other = _f(dy) * _f(gelu)
    halves = (d_gate, d_other) if activate_left else (d_other, d_gate)
    return np.concatenate(halves, axis=dim)
