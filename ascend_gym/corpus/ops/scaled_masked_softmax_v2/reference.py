"""numpy reference of scaled_masked_softmax_v2 (ours). ScaledMaskedSoftmaxV2: a true mask element is -10000 before the softmax."""

import numpy as np


def scaled_masked_softmax_v2(x, mask, scale, fixed_triu_mask):
    v = np.asarray(x, np.float64) * scale
    v = np.where(np.broadcast_to(np.asarray(mask, bool), v.shape), -10000.0, v)
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
