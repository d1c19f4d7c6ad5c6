"""numpy reference of gemma_rms_norm (ours). GemmaRmsNorm: RmsNorm scaled by 1 + gamma."""

import numpy as np


def gemma_rms_norm(x, gamma, epsilon):
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    return xf * rstd * (1.0 + np.asarray(gamma, np.float64)), rstd
