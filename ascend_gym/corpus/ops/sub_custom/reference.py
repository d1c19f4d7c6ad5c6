"""numpy reference of the corpus operator sub_custom (ours): y = x1 - x2 in float64, rounded to
the output's dtype by the checker."""

import numpy as np


def sub(x1, x2):
    return np.asarray(x1, np.float64) - x2
