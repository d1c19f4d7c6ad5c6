"""numpy reference of the corpus operator average_pooling_grad (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def div(x1, x2):
    return _f(x1) / _f(x2)


def average_pooling_grad(
    orig_input_shape,
    grad_output,
    kernel_h,
    kernel_w,
    stride_h,
    stride_w,
    pad_top,
    pad_bottom,
    pad_left,
    pad_right,
    ceil_mode,
    count_include_pad,
    divisor_override,
):
    n, c, h, w = (int(v) for v in orig_input_shape)
    g = _f(grad_output)
    out = np.zeros((n, c, h, w))
    for i in range(g.shape[2]):
        h0 = i * stride_h - pad_top
        h1 = min(h0 + kernel_h, h + pad_bottom)
        for j in range(g.shape[3]):
            w0 = j * stride_w - pad_left
            w1 = min(w0 + kernel_w, w + pad_right)
            r0, r1, c0, c1 = max(h0, 0), min(h1, h), max(w0, 0), min(w1, w)
            if divisor_override:
                div = divisor_override
            elif count_include_pad:
                div = (h1 - h0) * (w1 - w0)
            else:
                div = (r1 - r0) * (c1 - c0)
            out[:, :, r0:r1, c0:c1] += g[:, :, i : i + 1, j : j + 1] / div
    return out
