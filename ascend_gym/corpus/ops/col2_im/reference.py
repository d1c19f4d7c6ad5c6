"""numpy reference of the corpus operator col2_im (ours): the inputs positionally (floats as
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


def col2im(col, output_h, output_w, kernel_h, kernel_w, stride_val, padding_val, dilation_val):
    # torch fold: every column's taps summed into the padded image, the padding then cut off
    n = col.shape[0]
    c = col.shape[1] // (kernel_h * kernel_w)
    p, s, d = padding_val, stride_val, dilation_val
    oh = (output_h + 2 * p - d * (kernel_h - 1) - 1) // s + 1
    ow = (output_w + 2 * p - d * (kernel_w - 1) - 1) // s + 1
    rows, cols = _windows(kernel_h, kernel_w, s, s, d, d, oh, ow)
    image = np.zeros((n, c, output_h + 2 * p, output_w + 2 * p))
    taps = _f(col).reshape(n, c, kernel_h, kernel_w, oh, ow)
    np.add.at(image, (slice(None), slice(None), rows, cols), taps)
    return image[:, :, p : p + output_h, p : p + output_w]
