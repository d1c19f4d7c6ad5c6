"""numpy reference of scatter_elements_v2 (ours). ScatterElementsV2: reduction none, add or mul along axis."""

import numpy as np


def scatter_elements_v2(var, indices, updates, axis, reduction):
    out = var.copy()
    for pos in np.ndindex(indices.shape):
        target = list(pos)
        target[axis] = indices[pos]
        target = tuple(target)
        if reduction == "add":
            out[target] = out[target] + updates[pos]
        elif reduction == "mul":
            out[target] = out[target] * updates[pos]
        else:
            out[target] = updates[pos]
    return out
