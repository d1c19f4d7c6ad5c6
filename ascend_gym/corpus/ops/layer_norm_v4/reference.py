"""numpy reference of layer_norm_v4 (ours). LayerNormV4: mean and rstd keep x's rank, gamma and beta optional."""

import numpy as np


def layer_norm_v4(x, normalized_shape, gamma, beta, epsilon):
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    mean = xf.mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(((xf - mean) ** 2).mean(axis=axes, keepdims=True) + epsilon)
    y = (xf - mean) * rstd
    if gamma is not None:
        y = y * np.asarray(gamma, np.float64)
    if beta is not None:
        y = y + np.asarray(beta, np.float64)
    return y, mean, rstd
