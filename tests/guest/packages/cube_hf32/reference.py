import numpy as np

from ascend_core.suite.cube_ref import mmad


def round_hf32(x, ties_away):
    """fp32 rounded to HF32's 11 mantissa bits (the 12 low bits dropped), to nearest."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    special = (u & 0x7F800000) == 0x7F800000  # infinities and NaNs pass
    add = 0x800 if ties_away else 0x7FF + ((u >> 12) & 1)
    r = ((u + add) & 0xFFFFF000).astype(np.uint32)
    return np.where(special, u.astype(np.uint32), r).view(np.float32)


def cube_hf32(a, b, hf32, trans_mode):
    if hf32:
        a, b = round_hf32(a, trans_mode == 1), round_hf32(b, trans_mode == 1)
    return mmad(a, b, k0=8)
