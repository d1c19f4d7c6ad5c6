"""numpy reference of the corpus operator im2col (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def _windows(kh, kw, sh, sw, dh, dw, oh, ow):
    """(kernel row, kernel col, out row, out col) -> padded-image row and col of every window tap."""
    ki, kj = np.arange(kh)[:, None, None, None], np.arange(kw)[None, :, None, None]
    oi, oj = np.arange(oh)[None, None, :, None], np.arange(ow)[None, None, None, :]
    return ki * dh + oi * sh, kj * dw + oj * sw


def _unfold(x, kh, kw, sh, sw, pads, dh, dw):
    # torch unfold of NCHW x, pads (top, bottom, left, right): [N, C * kh * kw, oh * ow]
    n, c, h, w = x.shape
    xp = np.pad(_f(x), [(0, 0), (0, 0), pads[:2], pads[2:]])
    oh = (h + pads[0] + pads[1] - dh * (kh - 1) - 1) // sh + 1
    ow = (w + pads[2] + pads[3] - dw * (kw - 1) - 1) // sw + 1
    rows, cols = _windows(kh, kw, sh, sw, dh, dw, oh, ow)
    return xp[:, :, rows, cols].reshape(n, c * kh * kw, oh * ow)


def im2col(x, ksizes, strides, dilations, padding_mode, pads):
    y = _unfold(x, *ksizes, *strides, tuple(pads), *dilations)
    return y != 0 if x.dtype == np.bool_ else y
