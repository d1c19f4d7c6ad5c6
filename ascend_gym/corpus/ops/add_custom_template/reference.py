"""numpy reference of the corpus operator add_custom_template (ours): z = x + y, computed in float64 and rounded to
the output's dtype by the checker."""

import numpy as np


def add(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return x + y


def add_clamp(x, y, max, min):  # noqa: A002 (the attrs' names)
    z = np.clip(np.asarray(x, np.float64) + y, min, max)
    return np.rint(z).astype(x.dtype) if x.dtype.kind == "i" else z
