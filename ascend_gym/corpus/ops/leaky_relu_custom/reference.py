"""numpy reference of the corpus operator leaky_relu_custom (ours): x where x >= 0, else
negative_slope * x, in float64 (the checker rounds to the output's dtype)."""

import numpy as np


def leaky_relu(x, negative_slope=0.0):
    x = x.astype(np.float64)
    return np.where(x >= 0, x, negative_slope * x)
