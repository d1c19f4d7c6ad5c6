"""numpy reference of the corpus operator threshold_grad_v2_d (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def threshold_grad_v2_d(gradient, feature, threshold):
    return np.where(feature > threshold, gradient, np.zeros_like(gradient))
