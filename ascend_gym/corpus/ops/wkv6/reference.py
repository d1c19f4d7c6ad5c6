"""numpy reference of the corpus operator wkv6 (ours): RWKV-6's WKV with a carried state, in
float64. Per batch and head the state S is [N, N], S[i, j] the value channel i by the key channel
j (the layout of its state input and of wkv7's documented recurrence): o_t[i] = sum_j r_t[j]
(S[i, j] + u[j] k_t[j] v_t[i]), then S <- S * exp(-exp(w_t[j])) + v_t[i] k_t[j]."""

import numpy as np


def wkv6(k, v, w, r, u, hi):
    k, v, w, r, u = (np.asarray(a, np.float64) for a in (k, v, w, r, u))
    state = np.array(hi, np.float64)
    o = np.empty_like(k)
    decay = np.exp(-np.exp(w))
    for t in range(k.shape[2]):
        kv = v[:, :, t, :, None] * k[:, :, t, None, :]
        o[:, :, t] = ((state + u[None, :, None, :] * kv) * r[:, :, t, None, :]).sum(axis=-1)
        state = state * decay[:, :, t, None, :] + kv
    return o, state
