"""The reference of tests/corpus/ops_nn's affine_rows."""

import numpy as np


def affine_rows(x, scale, shift):
    return np.asarray(x, np.float64) * np.float32(scale) + np.float32(shift)
