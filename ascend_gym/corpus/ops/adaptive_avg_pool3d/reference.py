"""numpy reference of the corpus operator adaptive_avg_pool3d (ours): the inputs positionally (floats
as float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64,
rounded to each output's dtype by the checker."""

import numpy as np


def _bins(n_in, n_out):
    return [(i * n_in // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]


def adaptive_avg_pool3d(x, output_size):
    x = np.asarray(x, np.float64)
    n, d, h, w, c = x.shape
    od, oh, ow = output_size
    y = np.empty((n, od, oh, ow, c))
    for i, (d0, d1) in enumerate(_bins(d, od)):
        for j, (h0, h1) in enumerate(_bins(h, oh)):
            for k, (w0, w1) in enumerate(_bins(w, ow)):
                y[:, i, j, k] = x[:, d0:d1, h0:h1, w0:w1].mean(axis=(1, 2, 3))
    return y
