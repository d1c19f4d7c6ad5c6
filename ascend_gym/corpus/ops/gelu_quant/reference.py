"""numpy reference of the corpus operator gelu_quant (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _gelu(x, tanh_form):
    if tanh_form:
        return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))
    from scipy import special

    return 0.5 * x * (1.0 + special.erf(x / np.sqrt(2.0)))


def gelu_quant(x, input_scale, input_offset, approximate, quant_mode):
    # docs/aclnnGeluQuant.md: static y = round(gelu * scale + offset) clipped to int8; dynamic
    # y = round(gelu * scale * 127 / max|gelu * scale|) per row, out_scale = max|gelu * scale| / 127.
    g = _gelu(_f(x), approximate == "tanh")
    if input_scale is not None:
        g = g * _f(input_scale)
    if quant_mode == "static":
        if input_offset is not None:
            g = g + _f(input_offset)
        # out_scale is the dynamic mode's only: left undefined (not compared) in static mode
        return np.clip(np.rint(g), -128, 127), np.ma.masked_all(x.shape[:-1])
    peak = np.abs(g).max(axis=-1, keepdims=True)
    return np.clip(np.rint(g * (127.0 / peak)), -128, 127), peak[..., 0] / 127.0
