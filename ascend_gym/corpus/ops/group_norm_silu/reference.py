"""numpy reference of group_norm_silu (ours). GroupNormSilu: mean and rstd per (batch, group), silu optional."""

import numpy as np


def group_norm_silu(x, gamma, beta, num_groups, eps, activate_silu):
    xf = np.asarray(x, np.float64)
    n, c = x.shape[0], x.shape[1]
    g = xf.reshape(n, num_groups, -1)
    mean = g.mean(axis=2)
    rstd = 1.0 / np.sqrt(g.var(axis=2) + eps)
    y = ((g - mean[..., None]) * rstd[..., None]).reshape(xf.shape)
    bshape = (1, c) + (1,) * (x.ndim - 2)
    if gamma is not None:
        y = y * np.asarray(gamma, np.float64).reshape(bshape)
    if beta is not None:
        y = y + np.asarray(beta, np.float64).reshape(bshape)
    if activate_silu:
        y = y / (1.0 + np.exp(-y))
    return y, mean, rstd
