"""numpy reference of the corpus operator wkv4 (ours): RWKV-4's WKV recurrence with a carried
state (m, p, q), in float64, stepped in the max-shifted form the operator documents."""

import numpy as np


def wkv4(w, u, k, v, m, p, q):
    w, u, k, v = (np.asarray(a, np.float64) for a in (w, u, k, v))
    m, p, q = (np.array(a, np.float64) for a in (m, p, q))
    o = np.empty_like(k)
    for t in range(k.shape[1]):
        kt, vt = k[:, t], v[:, t]
        n = np.maximum(m, u + kt)
        a, b = np.exp(m - n), np.exp(u + kt - n)
        o[:, t] = (a * p + b * vt) / (a * q + b)
        n = np.maximum(w + m, kt)
        a, b = np.exp(w + m - n), np.exp(kt - n)
        p, q, m = a * p + b * vt, a * q + b, n
    return o, m, p, q
