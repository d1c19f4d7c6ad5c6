"""numpy reference of inplace_add_rms_norm (ours). InplaceAddRmsNorm: AddRmsNorm whose y and sum land in x1 and x2."""

import numpy as np


def _bf16(x: np.ndarray) -> np.ndarray:
    """float32 rounded to the nearest bfloat16 (ties to even), kept as float32."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return (((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32).view(np.float32)


def inplace_add_rms_norm(x1, x2, gamma, epsilon, dtypes):
    # The sum is an output in the inputs' dtype, and the device normalises that rounded sum
    # (bfloat16 inputs arrive as float32: the case's dtypes say when to round to bfloat16).
    x = (np.asarray(x1, np.float64) + np.asarray(x2, np.float64)).astype(x1.dtype)
    if dtypes["x1"] == "bfloat16":
        x = _bf16(x)
    xf = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((xf * xf).mean(axis=axes, keepdims=True) + epsilon)
    return xf * rstd * np.asarray(gamma, np.float64), rstd, xf
