"""numpy reference of the corpus operator ge_glu_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def gelu(x):
    x = _f(x)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def ge_glu_v2(x, dim, approximate, activate_left):
    a, b = np.split(_f(x), 2, axis=dim)
    gate, other = (a, b) if activate_left else (b, a)
    if approximate == 1:
        gelu = 0.5 * gate * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (gate + 0.044715 * gate**3)))
    else:
        from scipy import special

        gelu = 0.5 * gate * (1.0 + special.erf(gate / np.sqrt(2.0)))
    return other * gelu, gelu
