"""The cube family on the guest engine (Nd2Nz, LoadData, Mmad, Fixpipe, the Matmul high-level API
and mixed AIC/AIV launches): the suite's cube kernels get the native engine's verdict and simulated
latency, and forged handles, tensors and tilings stop the kernel as RUNTIME_ERROR."""

from __future__ import annotations

import pytest

CUBE_KERNELS = [
    "level1/matmul",
    "level1/matmul_trans_a",
    "level1/matmul_split_k",
    "level1/matmul_int8",
    "level1/linear",
    "level1/gemv",
    "level2/batch_matmul",
    "level2/batch_matmul_trans_b",
    "level2/grouped_matmul",
    "level2/conv2d",
    "level3/attention_softmax",
]


@pytest.mark.parametrize("uri", CUBE_KERNELS)
def test_suite_cube_kernels_match_the_native_engine(engines, uri):
    engines.same(uri)
