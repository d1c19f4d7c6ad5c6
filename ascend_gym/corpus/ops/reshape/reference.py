"""numpy reference of the corpus operator reshape (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def reshape(x, shape, axis, num_axes):
    x = np.asarray(x)
    keep = x.ndim - axis if num_axes == -1 else num_axes
    return x.reshape(
        [*x.shape[:axis], *np.asarray(shape).ravel().tolist(), *x.shape[axis + keep :]]
    )
