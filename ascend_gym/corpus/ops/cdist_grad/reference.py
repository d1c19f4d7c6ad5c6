"""numpy reference of the corpus operator cdist_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def cdist_grad_broadcast(grad, x1, x2, cdist, p):
    """grad, x1, x2, cdist broadcast to [..., P, Q, M]: the sum over Q of each element's term."""
    diff = _f(x1) - _f(x2)
    term = np.sign(diff) * np.abs(diff) ** (p - 1) / _f(cdist) ** (p - 1)
    return np.sum(_f(grad) * term, axis=-2)


def cdist_grad(grad_output, x1, x2, cdist_result, p):
    diff = _f(x1)[:, :, None, :] - _f(x2)[:, None, :, :]  # [B, P, Q, M]
    scale = _f(grad_output) / _f(cdist_result) ** (p - 1)  # [B, P, Q]
    return np.einsum("bpq,bpqm->bpm", scale, np.sign(diff) * np.abs(diff) ** (p - 1))
