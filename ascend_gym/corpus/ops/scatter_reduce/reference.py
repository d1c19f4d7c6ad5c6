"""numpy reference of the corpus operator scatter_reduce (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def scatter_reduce(x, index, src, dim, reduce, include_self):
    # torch.scatter_reduce: every src element reduces into x at its index along dim; without
    # include_self, the positions some src element reaches start from that reduction's identity.
    out, src = _f(x).copy(), _f(src)
    where = list(np.indices(index.shape))
    where[dim] = index.astype(np.int64)
    where = tuple(where)
    hit = np.zeros(out.shape, bool)
    hit[where] = True
    identity = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf}[reduce]
    if not include_self:
        out[hit] = identity
    ufunc = {
        "sum": np.add,
        "mean": np.add,
        "prod": np.multiply,
        "amax": np.maximum,
        "amin": np.minimum,
    }
    ufunc[reduce].at(out, where, src)
    if reduce == "mean":
        count = np.full(out.shape, 1.0 if include_self else 0.0)
        np.add.at(count, where, 1.0)
        out = np.where(hit, out / np.maximum(count, 1.0), out)
    return out
