"""numpy reference of swi_glu_quant (ours). SwiGluQuant: the kernel's scale is 127 / row max, multiplied in."""

import numpy as np


def swi_glu_quant(
    x, smooth_scales, offsets, group_index, activate_left, quant_mode, group_list_type, dst_type
):
    a, b = np.split(np.asarray(x, np.float64), 2, axis=-1)
    act = a / (1.0 + np.exp(-a)) * b if activate_left else a * b / (1.0 + np.exp(-b))
    v = act * np.asarray(smooth_scales, np.float64)[0]
    scale = 127.0 / np.abs(v).max(axis=-1, keepdims=True)
    return np.clip(np.rint(v * scale), -128, 127), scale[..., 0]
