"""numpy reference of the corpus operator rms_norm_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def rms_norm_grad(dy, x, rstd, gamma):
    # docs/aclnnRmsNormGrad.md, with rstd given (the forward's 1 / Rms(x) per row of the leading
    # axes): dx = rstd * (dy * g - x * rstd^2 * mean(dy * g * x)), dgamma = sum over rows of
    # dy * x * rstd.
    n = gamma.size
    dy2, x2 = _f(dy).reshape(-1, n), _f(x).reshape(-1, n)
    r = _f(rstd).reshape(-1, 1)
    g = _f(gamma).reshape(1, n)
    dyg = dy2 * g
    dx = r * dyg - x2 * r**3 * (dyg * x2).mean(axis=-1, keepdims=True)
    return dx.reshape(x.shape), (dy2 * x2 * r).sum(axis=0).reshape(gamma.shape)
