"""numpy reference of the corpus operator fake_quant_affine_cachemask (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def fake_quant_affine_cachemask(x, scale, zero_point, axis, quant_min, quant_max):
    # Per row of axis 0 (the aclnn layer broadcasts a per-tensor scale to x's first dim); x / scale
    # is x times the reciprocal in x's dtype, rounded half to even as the kernel's CAST_RINT.
    shape = (-1,) + (1,) * (x.ndim - 1)
    inv = (1.0 / _f(scale)).astype(x.dtype).reshape(shape)
    q = np.rint((x * inv).astype(np.float64)) + _f(zero_point).reshape(shape)
    mask = (q >= quant_min) & (q <= quant_max)
    y = (np.clip(q, quant_min, quant_max) - _f(zero_point).reshape(shape)) * _f(scale).reshape(
        shape
    )
    return y, mask
