"""numpy reference of dynamic_quant_v2 (ours). DynamicQuantV2: per-row asymmetric int8 with a scale and an offset."""

import numpy as np


def dynamic_quant_v2(x, smooth_scales, group_index, dst_type):
    v = np.asarray(x, np.float64)
    if smooth_scales is not None:
        v = v * np.asarray(smooth_scales, np.float64)
    hi = v.max(axis=-1, keepdims=True)
    scale = (hi - v.min(axis=-1, keepdims=True)) / 255.0
    offset = 127.0 - hi / scale
    return np.clip(np.rint(v / scale + offset), -128, 127), scale[..., 0], offset[..., 0]
