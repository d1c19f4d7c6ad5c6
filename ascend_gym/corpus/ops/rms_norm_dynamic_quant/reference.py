"""numpy reference of rms_norm_dynamic_quant (ours). RmsNormDynamicQuant: per-row symmetric int8 of RmsNorm's output."""

import numpy as np


def rms_norm_dynamic_quant(x, gamma, smooth_scales, beta, epsilon, dst_type):
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    v = xf * rstd * np.asarray(gamma, np.float64)
    if beta is not None:
        v = v + np.asarray(beta, np.float64)
    if smooth_scales is not None:
        v = v * np.asarray(smooth_scales, np.float64)
    scale = np.abs(v).max(axis=-1, keepdims=True) / 127.0
    return np.clip(np.rint(v / scale), -128, 127), scale[..., 0]
