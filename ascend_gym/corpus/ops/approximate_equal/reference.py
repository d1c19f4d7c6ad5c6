"""numpy reference of the corpus operator approximate_equal (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def approximate_equal(x1, x2, tolerance):
    # The difference rounded to float32 (exact for fp16 and bf16 inputs), compared with the
    # float32 tolerance: a float64 difference one rounding away from it does not decide the case.
    d = np.abs(np.asarray(x1, np.float32) - np.asarray(x2, np.float32))
    return d < np.float32(tolerance)
