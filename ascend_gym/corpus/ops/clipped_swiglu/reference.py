"""numpy reference of clipped_swiglu (ours). ClippedSwiglu: clamp before the gate (clamp_mode 0)."""

import numpy as np


def clipped_swiglu(x, group_index, dim, alpha, limit, bias, interleaved):
    v = np.moveaxis(np.asarray(x, np.float64), dim, -1)
    if interleaved:
        a, b = v[..., 0::2], v[..., 1::2]
    else:
        a, b = np.split(v, 2, axis=-1)
    a = np.minimum(a, limit)
    b = np.clip(b, -limit, limit)
    y = a / (1.0 + np.exp(-alpha * a)) * (b + bias)
    return np.moveaxis(y, -1, dim)
