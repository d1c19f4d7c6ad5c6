"""numpy reference of the corpus operator quantize (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


_QUANT_RANGE = {
    "torch.qint8": (-128, 127),
    "torch.quint8": (0, 255),
    "torch.qint32": (-(2**31), 2**31 - 1),
}


def quantize(x, scales, zero_points, dtype, axis):
    shape = [1] * x.ndim
    shape[axis] = -1
    s = _f(scales).reshape(shape) if scales.size > 1 else _f(scales)
    zp = 0.0 if zero_points is None else _f(zero_points).reshape(s.shape)
    lo, hi = _QUANT_RANGE[dtype]
    return np.clip(np.rint(np.float32(_f(x) / s + zp)), lo, hi)
