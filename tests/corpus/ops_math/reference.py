"""The reference of tests/corpus/ops_math's scale_tpl."""

import numpy as np


def scale_tpl(x, mode, negate, raw_key):
    return np.asarray(x, np.float64) * (-mode if negate else mode)
