"""numpy references of the cube unit that accumulate exactly as docs/simulator.md documents (the
suite's cube operators and the simulator's cube tests share them)."""

from __future__ import annotations

import numpy as np


def mmad(a: np.ndarray, b: np.ndarray, k0: int = 16, init: np.ndarray | None = None) -> np.ndarray:
    """C = init + a @ b: per fractal step of k0 products, a partial sum in fp32 from 0 in k order,
    added to the fp32 accumulator; int8 inputs accumulate exactly in int32."""
    m, k = a.shape
    n = b.shape[1]
    if a.dtype == np.int8:
        c = np.zeros((m, n), np.int64) if init is None else init.astype(np.int64)
        c += a.astype(np.int64) @ b.astype(np.int64)
        return ((c + 2**31) % 2**32 - 2**31).astype(np.int32)
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    c = np.zeros((m, n), np.float32) if init is None else init.astype(np.float32).copy()
    part = np.empty((m, n), np.float32)
    prod = np.empty((m, n), np.float32)
    for kb in range(0, k, k0):
        part.fill(0)
        for kk in range(kb, min(k, kb + k0)):
            np.multiply(fa[:, kk : kk + 1], fb[kk : kk + 1, :], out=prod)
            part += prod
        c += part
    return c


def matmul_f16(a: np.ndarray, b: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    """fp16 a @ b as the cube computes it (fp32 accumulation in the documented order), rounded
    once to fp16 by the Fixpipe (round to nearest even)."""
    return mmad(a, b, init=init).astype(np.float16)
