"""numpy reference of add_rms_norm_cast (ours). AddRmsNormCast: y2 in x's dtype, y1 that rounded y2 widened to float32."""

import numpy as np


def add_rms_norm_cast(x1, x2, gamma, epsilon):
    x = (np.asarray(x1, np.float64) + np.asarray(x2, np.float64)).astype(x1.dtype)
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    y = xf * rstd * np.asarray(gamma, np.float64)
    return y, y, rstd, xf
