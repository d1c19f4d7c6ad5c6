"""Data movement and the kernel-side odds and ends on the guest engine: DataCopy's DataCopyParams
forms (GM <-> UB and UB -> UB, strided), DataCopyPad's legacy forms, SetAtomicAdd, queue hops,
TBuf::GetWithOffset, the tiling's pointer and member forms, SetL2CacheHint. Kernels that use them
get the native engine's verdict and simulated latency; forged copy parameters that reach past a
buffer stop the kernel (RUNTIME_ERROR) instead of reaching host memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import load_expert, resolve

KERNELS = Path(__file__).parent / "kernels"
ENTRY = 'extern "C" __global__ __aicore__ void add('


def add_with(kernel: str):
    return resolve("level1/add").with_sources(kernel=kernel)


@pytest.mark.parametrize(
    "uri", ["level1/add", "level1/mul", "level1/relu", "level1/gelu", "level1/mish"]
)
def test_expert_kernels_with_cache_hints_match_the_native_engine(engines, uri):
    # SetL2CacheHint(CACHE_MODE_DISABLE) moves the copies' simulated cost: the hint crosses too.
    engines.same(load_expert(uri))


def test_a_kernel_of_parameter_form_copies_and_atomics_matches_the_native_engine(engines):
    engines.same(add_with((KERNELS / "add_by_copies.cpp").read_text()))


def forged(body: str) -> str:
    """level1/add's kernel with `body` at the top of its entry (a queue-less UB tensor at 0)."""
    text = resolve("level1/add").files["op_kernel/add.cpp"]
    return text.replace(
        "  GET_TILING_DATA(tilingData, tiling);",
        "  GET_TILING_DATA(tilingData, tiling);\n"
        "  GlobalTensor<half> g;\n  g.SetGlobalBuffer((__gm__ half*)x, 16);\n"
        "  LocalTensor<half> t(0, 16, TPosition::VECIN);\n" + body,
        1,
    )


@pytest.mark.parametrize(
    "body, why",
    [
        # 4095 bursts with 65535-block gaps: far past the input's GM buffer
        ("  DataCopy(t, g, DataCopyParams{4095, 1, 65535, 0});\n", "no GM buffer"),
        ("  DataCopy(g, t, DataCopyParams{2, 1, 0, 65535});\n", "no GM buffer"),
        # gaps in UB that run past the UB
        ("  DataCopy(t, g, DataCopyParams{2, 1, 0, 65535});\n", "past"),
        ("  DataCopy(t, t, DataCopyParams{64, 1, 65535, 0});\n", "past"),
        ("  DataCopyPad(t, g, DataCopyParams{2, 32, 0, 65535}, DataCopyPadParams{});\n", "past"),
        ("  DataCopyPad(g, t, DataCopyExtParams{4095, 32, 0, 1u << 30, 0});\n", "no GM buffer"),
    ],
)
def test_forged_copy_parameters_stop_the_kernel(engines, body, why):
    request = EvalRequest(
        run_id="forged",
        package=add_with(forged(body)),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    result = engines.guest.evaluate(request)
    assert result.status is Status.RUNTIME_ERROR and why in result.message, result.message
