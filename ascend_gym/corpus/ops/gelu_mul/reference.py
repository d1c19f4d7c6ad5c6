"""numpy reference of the corpus operator gelu_mul (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np
from scipy import special


def gelu_mul(x, approximate):
    x1, x2 = np.split(np.asarray(x, np.float64), 2, axis=-1)
    if approximate == "tanh":
        g = 0.5 * x1 * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x1 + 0.044715 * x1**3)))
    else:
        g = 0.5 * x1 * (1.0 + special.erf(x1 / np.sqrt(2.0)))
    return g * x2
