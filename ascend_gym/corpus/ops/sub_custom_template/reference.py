"""numpy reference of the corpus operator sub_custom_template (ours): z = x - y, computed in float64 and rounded to
the output's dtype by the checker."""

import numpy as np


def sub(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return x - y
