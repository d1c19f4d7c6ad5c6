"""numpy reference of the corpus operator sigmoid_custom (ours): y = 1 / (1 + exp(-x)) in
float64, rounded to the output's dtype by the checker."""

import numpy as np


def sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(x, np.float64)))  # no overflow for large |x|
