"""The wave schedule: a launch with more blocks than vector cores runs them wave by wave, each core
taking the next block when it frees, whatever the blocks' instruction mix. Scalar-only blocks (no
DMA) used to run every block past the first wave on one core (issue 33: 48 blocks 1.1 ms, 96
blocks 54 ms)."""

import numpy as np
import pytest
from conftest import UB_HELPERS

CORES = 40  # Ascend910B4's vector cores, the default SoC
N = 1024  # elements per block
S = 512  # scalar stores per block: enough work that a block switch (200 cycles) stays small
SCALAR = f"""GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z);
  const int64_t b = GetBlockIdx();
  for (int64_t i = 0; i < {S}; ++i) zg.SetValue(b * {S} + i, static_cast<float>(b + i));"""
DMA = f"""Ub ub; const int64_t b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x + b * {N} * sizeof(float), {N});
  SYNC(); ub.Out(z + b * {N} * sizeof(float), a, {N});"""
MIXED = f"""Ub ub; const int64_t b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x + b * {N} * sizeof(float), {N});
  SYNC(); Adds(a, a, 1.0f, {N}); SYNC();
  for (int64_t i = 0; i < 8; ++i) a.SetValue(i, a.GetValue(i) * 2.0f);
  SYNC(); ub.Out(z + b * {N} * sizeof(float), a, {N});"""


def expected(kind: str, blocks: int, x: np.ndarray) -> np.ndarray:
    if kind == "scalar":
        b, i = np.divmod(np.arange(blocks * S), S)
        return (b + i).astype(np.float32)
    if kind == "dma":
        return x
    y = (x + 1).reshape(blocks, N)
    y[:, :8] *= 2
    return y.reshape(-1)


@pytest.mark.parametrize("kind", ["scalar", "dma", "mixed"])
def test_each_wave_takes_the_time_of_the_first(kernel, kind):
    body = {"scalar": SCALAR, "dma": DMA, "mixed": MIXED}[kind]
    kernel_us = {}
    for waves in (1, 2, 5):
        blocks = waves * CORES
        x = np.arange(blocks * N, dtype=np.float32)
        out = blocks * S if kind == "scalar" else blocks * N
        r = kernel(
            body,
            {"x": x},
            {"z": ("float32", (out,))},
            block_dim=blocks,
            prelude=UB_HELPERS,
        ).ok()
        np.testing.assert_array_equal(r.outputs["z"], expected(kind, blocks, x))
        profile = r.result["profile"]
        assert profile["block_dim"] == blocks
        kernel_us[waves] = r.result["latency_us"] - profile["head_us"]
    for waves in (2, 5):
        assert 0.8 * waves < kernel_us[waves] / kernel_us[1] < 1.2 * waves, kernel_us
