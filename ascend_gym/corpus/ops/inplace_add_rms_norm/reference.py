"""numpy reference of inplace_add_rms_norm (ours). InplaceAddRmsNorm: AddRmsNorm whose y and sum land in x1 and x2."""

import numpy as np


def inplace_add_rms_norm(x1, x2, gamma, epsilon):
    # The sum is an output in the inputs' dtype, and the device normalises that rounded sum.
    x = (np.asarray(x1, np.float64) + np.asarray(x2, np.float64)).astype(x1.dtype)
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    return xf * rstd * np.asarray(gamma, np.float64), rstd, xf
