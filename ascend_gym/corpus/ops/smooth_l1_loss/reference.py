"""numpy reference of the corpus operator smooth_l1_loss (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def smooth_l1_loss(predict, label, sigma):
    z = np.abs(np.asarray(predict, np.float64) - np.asarray(label, np.float64))
    return np.where(z < sigma, 0.5 * z * z / sigma, z - 0.5 * sigma)
