"""numpy reference of add_rms_norm_quant (ours). AddRmsNormQuant: two int8 quantisations of one RmsNorm output."""

import numpy as np


def _quant(y, scales, zero_points, div_mode):
    s = np.asarray(scales, np.float64)
    v = y / s if div_mode else y * s
    if zero_points is not None:
        v = v + np.asarray(zero_points, np.float64)
    return np.clip(np.rint(v), -128, 127)


def add_rms_norm_quant(
    x1,
    x2,
    gamma,
    scales1,
    scales2,
    zero_points1,
    zero_points2,
    beta,
    axis,
    epsilon,
    div_mode,
    dst_type,
):
    x = (np.asarray(x1, np.float64) + np.asarray(x2, np.float64)).astype(x1.dtype)
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    y = xf * rstd * np.asarray(gamma, np.float64)
    if beta is not None:
        y = y + np.asarray(beta, np.float64)
    y2 = _quant(y, scales2, zero_points2, div_mode) if scales2 is not None else np.zeros_like(y)
    return _quant(y, scales1, zero_points1, div_mode), y2, xf
