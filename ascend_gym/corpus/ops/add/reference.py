"""numpy reference of the corpus operator add (ours): x1 + x2 elementwise, in float64 for floating
inputs (the checker rounds to the output's dtype), in the inputs' integer type otherwise."""

import numpy as np


def add(x1, x2):
    if x1.dtype.kind == "f":
        return x1.astype(np.float64) + x2
    return (x1 + x2).astype(x1.dtype)
