"""numpy reference of the corpus operator square_diff (ours): z = (x + y) * (x - y), computed in float64 and rounded to
the output's dtype by the checker."""

import numpy as np


def square_diff(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return (x + y) * (x - y)
