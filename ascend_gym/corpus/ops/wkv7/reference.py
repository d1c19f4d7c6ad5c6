"""numpy reference of the corpus operator wkv7 (ours): RWKV-7's WKV with a carried state, in
float64, as its README writes it. Per batch and head the state h is [N, N] (value by key):
sa = h a_t, h <- h * exp(w_t)[None, :] + v_t k_t^T + sa b_t^T, o_t = h r_t."""

import numpy as np


def wkv7(k, v, w, r, a, b, hi):
    k, v, w, r, a, b = (np.asarray(x, np.float64) for x in (k, v, w, r, a, b))
    h = np.array(hi, np.float64)
    o = np.empty_like(k)
    for t in range(k.shape[2]):
        sa = (h * a[:, :, t, None, :]).sum(axis=-1)
        h = (
            h * np.exp(w[:, :, t, None, :])
            + v[:, :, t, :, None] * k[:, :, t, None, :]
            + sa[..., None] * b[:, :, t, None, :]
        )
        o[:, :, t] = (h * r[:, :, t, None, :]).sum(axis=-1)
    return o, h
