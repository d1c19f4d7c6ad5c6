"""numpy reference of the corpus operator max_pool_with_argmax_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def max_pool_with_argmax_v3(x, kernel_size, strides, pads, dilations, ceil_mode):
    return _max_pool(x, kernel_size, strides, pads, dilations, ceil_mode)


def _max_pool(x, k, s, p, d, ceil_mode):
    """NCHW max pooling: window maxima and the flat h * W + w index of each one's first maximum."""
    n, c, h, w = x.shape
    ho = _pool_out(h, k[0], s[0], p[0], p[0], d[0], ceil_mode)
    wo = _pool_out(w, k[1], s[1], p[1], p[1], d[1], ceil_mode)
    y = np.empty((n, c, ho, wo), x.dtype)
    arg = np.empty((n, c, ho, wo), np.int64)
    for i in range(ho):
        rows = [
            r
            for r in range(i * s[0] - p[0], i * s[0] - p[0] + d[0] * (k[0] - 1) + 1, d[0])
            if 0 <= r < h
        ]
        for j in range(wo):
            cols = [
                q
                for q in range(j * s[1] - p[1], j * s[1] - p[1] + d[1] * (k[1] - 1) + 1, d[1])
                if 0 <= q < w
            ]
            flat = np.array([r * w + q for r in rows for q in cols])
            win = x.reshape(n, c, h * w)[:, :, flat]
            first = np.argmax(win, axis=2)
            y[:, :, i, j] = np.take_along_axis(win, first[..., None], 2)[..., 0]
            arg[:, :, i, j] = flat[first]
    return y, arg


def _pool_out(size, k, s, p0, p1, d, ceil_mode):
    span = size + p0 + p1 - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    return out - 1 if ceil_mode and (out - 1) * s >= size + p0 else out
