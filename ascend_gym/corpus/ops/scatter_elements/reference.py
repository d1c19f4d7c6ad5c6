"""numpy reference of the corpus operator scatter_elements (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def scatter_elements(var, indices, updates, axis, reduce):
    out = var.copy()
    for pos in np.ndindex(indices.shape):
        target = list(pos)
        target[axis] = indices[pos]
        target = tuple(target)
        if reduce == "add":
            out[target] = out[target] + updates[pos]
        elif reduce == "mul":
            out[target] = out[target] * updates[pos]
        else:
            out[target] = updates[pos]
    return out
