"""The references of tests/corpus/tree's operators."""

import numpy as np


def scale_rows(x, scale):
    return x * np.float32(scale)


def offset_scale(x, scale, offset):
    return x * np.float32(scale) + np.float32(offset)
