"""numpy reference of the corpus operator wkv4grad (ours): the exact gradients of RWKV-4's WKV
from the zero state, in float64, from its closed form. With e[t, i] = exp((t-1-i) w + k_i) for
i < t and exp(u + k_t) for i = t, y_t = sum_i e[t, i] v_i / s_t, s_t = sum_i e[t, i]; each
output's gradient is then a sum over the steps t >= i of gy_t e[t, i] / s_t times v_i - y_t
(k, u), (t-1-i)(v_i - y_t) (w) or 1 (v)."""

import numpy as np


def wkv4grad(w, u, k, v, gy):
    w, u, k, v, gy = (np.asarray(a, np.float64) for a in (w, u, k, v, gy))
    steps = k.shape[1]
    t_idx = np.arange(steps)
    lag = t_idx[:, None] - 1 - t_idx[None, :]  # [t, i]: t-1-i, meaningful for i < t
    past = lag >= 0
    diag = np.eye(steps, dtype=bool)
    # exponent[b, t, i, c]: decay for earlier steps, the bonus u on the diagonal
    expo = np.where(past[None, :, :, None], lag[None, :, :, None] * w + k[:, None, :, :], -np.inf)
    expo = np.where(diag[None, :, :, None], u + k[:, None, :, :], expo)
    e = np.exp(expo)
    s = e.sum(axis=2)
    y = (e * v[:, None, :, :]).sum(axis=2) / s
    g = (gy / s)[:, :, None, :] * e  # [b, t, i, c]
    dev = v[:, None, :, :] - y[:, :, None, :]
    gv = g.sum(axis=1)
    gk = (g * dev).sum(axis=1)
    gu = (g * dev * diag[None, :, :, None]).sum(axis=(1, 2))
    gw = (g * dev * np.where(past, lag, 0)[None, :, :, None]).sum(axis=(1, 2))
    return gw, gu, gk, gv
