"""numpy reference of modulate (ours). Modulate: scale and shift broadcast over the sequence axis."""

import numpy as np


def _bld(t, x):
    t = np.asarray(t, np.float64)
    return t[:, None, :] if t.ndim == 2 else t


def modulate(x, scale, shift):
    y = np.asarray(x, np.float64)
    if scale is not None:
        y = y * (1.0 + _bld(scale, x))
    if shift is not None:
        y = y + _bld(shift, x)
    return y
