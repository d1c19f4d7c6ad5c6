"""Data movement and the kernel-side odds and ends on the guest engine: DataCopy's DataCopyParams
forms (GM <-> UB and UB -> UB, strided), DataCopyPad's legacy forms, SetAtomicAdd, queue hops,
TBuf::GetWithOffset, the tiling's pointer and member forms, SetL2CacheHint. Kernels that use them
get the native engine's verdict and simulated latency; forged copy parameters that reach past a
buffer stop the kernel (RUNTIME_ERROR) instead of reaching host memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import load_expert, op_uris, resolve

from .conftest import lean

KERNELS = Path(__file__).parent / "kernels"
ENTRY = 'extern "C" __global__ __aicore__ void add('


def add_with(kernel: str):
    return resolve("level1/add").with_sources(kernel=kernel)


@pytest.mark.parametrize(
    "uri", lean(["level1/add", "level1/mul", "level1/relu", "level1/gelu", "level1/mish"])
)
def test_expert_kernels_with_cache_hints_match_the_native_engine(engines, uri):
    # SetL2CacheHint(CACHE_MODE_DISABLE) moves the copies' simulated cost: the hint crosses too.
    engines.same(load_expert(uri))


@pytest.mark.parametrize("name", ["level1/add_v2", "level1/greater", "level1/asinh"])
def test_entries_as_real_operators_spell_them_match_the_native_engine(engines, name):
    # `template <uint32_t schMode> __global__ void op(...)` (the native build's key dispatcher),
    # an entry without extern "C", an entry named after a libc function (asinh).
    try:
        op_uris("ascend-real-v1", [1])
    except (
        KeyError
    ) as e:  # materialised from the operators' checkouts (ascend-gym suite materialise)
        pytest.skip(str(e))
    engines.same(f"op://ascend-real-v1/{name}")


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
        ("  DataCopy(t, g, DataCopyParams{4095, 1, 65535, 0});\n", "GM buffer"),
        ("  DataCopy(g, t, DataCopyParams{2, 1, 0, 65535});\n", "GM buffer"),
        # gaps in UB that run past the UB
        ("  DataCopy(t, g, DataCopyParams{2, 1, 0, 65535});\n", "past"),
        ("  DataCopy(t, t, DataCopyParams{64, 1, 65535, 0});\n", "past"),
        ("  DataCopyPad(t, g, DataCopyParams{2, 32, 0, 65535}, DataCopyPadParams{});\n", "past"),
        ("  DataCopyPad(g, t, DataCopyExtParams{4095, 32, 0, 1u << 30, 0});\n", "GM buffer"),
        # a parameter struct the guest does not hold, codes no API call makes
        (
            "  DataCopy(t, g, *reinterpret_cast<const DataCopyParams*>(0xFFFFFFF0u));\n",
            "outside the kernel's memory",
        ),
        ("  g.SetL2CacheHint(static_cast<CacheMode>(9));\n  DataCopy(t, g, 16);\n", "out of range"),
        (
            "  ascendc_guest::set_atomic(ascendc_guest::Dtype::kU64, ascendc_guest::AtomicOp::kAdd);\n",
            "not in",
        ),
        ("  ascendc_guest::api_fail(static_cast<ascendc_guest::Fault>(99), 1);\n", "unknown"),
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


PRELOAD = "  GlobalTensor<uint64_t> lines;\n  lines.SetGlobalBuffer((__gm__ uint64_t*)x);\n"


def test_a_kernel_preloading_a_line_it_reads_matches_the_native_engine(engines):
    # The read of element 32 (byte 64) waits for what is left of its line's fill on both engines.
    body = PRELOAD + "  DataCachePreload(lines, int64_t{64});\n  (void)g.GetValue(32);\n"
    engines.same(add_with(forged(body)))


@pytest.mark.parametrize("offset", ["int64_t{1} << 24", "int64_t{1} << 40", "-(int64_t{1} << 40)"])
def test_a_preload_outside_the_gm_buffers_stops_the_kernel_on_both_engines(engines, offset):
    # The device preloads whatever address it is given; the emulation holds it to the launch's GM.
    body = PRELOAD + f"  DataCachePreload(lines, {offset});\n"
    native, guest = engines.both(add_with(forged(body)), run_id="preload")
    for r in (native, guest):
        assert r.status is Status.RUNTIME_ERROR and "DataCachePreload" in r.message, r.message


def test_a_kernels_own_output_carries_no_case_data(engines):
    # What it prints of an input (and a dump of it) would come back in a failing run's log.
    body = (
        '  printf("LEAK %f\\n", static_cast<float>(g.GetValue(0)));\n'
        '  PRINTF("LEAK %d\\n", 7);\n'
        "  DumpTensor(g, 1, 16);\n"
        "  Trap();\n"
    )
    request = EvalRequest(
        run_id="printer",
        package=add_with(forged(body)),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    result = engines.guest.evaluate(request)
    assert result.status is Status.RUNTIME_ERROR and "Trap()" in result.message, result.message
    assert "LEAK" not in result.log_tail + result.message
    assert "DumpTensor" not in result.log_tail


def test_gm_accesses_past_the_padding_inside_the_pages_get_the_native_verdict(engines):
    # A read 64 B past the input's end (past aclrtMalloc's 32 B padding, inside its pages) and a
    # write there into the output's 512 B allocator block: device-tolerated warnings on the native
    # engine (docs/simulator.md), and the guest engine resolves them to the same buffer's pages
    # instead of stopping the kernel with "in no GM buffer".
    body = (
        "  GlobalTensor<half> gx, gz;\n"
        "  gx.SetGlobalBuffer((__gm__ half*)x);\n  gz.SetGlobalBuffer((__gm__ half*)z);\n"
        "  const uint32_t past = tilingData.totalLength * sizeof(DTYPE_X) / sizeof(half) + 32;\n"
        "  DataCopy(t, gx[past], 16);\n  PipeBarrier<PIPE_ALL>();\n"
        "  if (GetBlockIdx() == 0) DataCopy(gz[past], t, 16);\n  PipeBarrier<PIPE_ALL>();\n"
    )
    native, guest = engines.both(add_with(forged(body)))
    assert (native.backend, guest.backend) == ("sim", "sim-guest")
    for r in (native, guest):
        assert r.status is Status.OK, (r.backend, r.message)
        assert "runs past the buffer (the device reads" in r.message, r.message
        assert "inside its 512 B allocator block" in r.message, r.message
    assert guest.latency_us == pytest.approx(native.latency_us, rel=0.02)
