"""The guest engine (`--backend sim-guest`, docs/trust_boundary.md): the kernel runs as a metered
WebAssembly module and reaches tensor memory, the trace and the timing only through the API's
imports. Each attack below broke the native engine in a red-team round; here it has no route."""

from __future__ import annotations

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.sim import guest_build

try:
    guest_build.toolchain_version()
except guest_build.GuestToolchainMissing as e:  # .ci/run installs it; a developer machine may not
    pytest.skip(str(e), allow_module_level=True)

ENTRY = 'extern "C" __global__ __aicore__ void add('


@pytest.fixture()
def guest(client: DaemonClient) -> DaemonClient:
    """The session's `sim-guest` daemon (tests/conftest.py)."""
    return client


@pytest.fixture(scope="module")
def unchecked_guest(tmp_path_factory) -> DaemonClient:
    """The acceptance check off (`--source-policy off`): the tiling's confinement behind the
    gates, for the attacks the link gate now refuses before they run."""
    state = tmp_path_factory.mktemp("u")
    extra = ["--source-policy", "off"]
    with LocalDaemon(backend="sim-guest", workers=1, state_dir=state, extra_args=extra) as d:
        c = DaemonClient(d.address, heartbeat_s=1.0)
        yield c
        c.close()


def timed(kernel: str | None = None, run_id: str = "guest") -> EvalRequest:
    pkg = resolve("level1/add")
    if kernel is not None:
        pkg = pkg.with_sources(kernel=kernel)
    return EvalRequest(
        run_id=run_id,
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        timeouts=Timeouts(build_s=120, run_s=120),
    )


def kernel_with(prelude: str = "", body: str = "") -> str:
    """level1/add's kernel with code before it and at the top of its entry."""
    text = resolve("level1/add").files["op_kernel/add.cpp"]
    return prelude + text.replace(ENTRY, ENTRY, 1).replace(
        "  GET_TILING_DATA(tilingData, tiling);",
        f"  GET_TILING_DATA(tilingData, tiling);\n{body}",
        1,
    )


def test_a_suite_kernel_runs_unchanged_with_the_native_engines_latency(guest, native_client):
    ours = guest.evaluate(timed(run_id="same"))
    native = native_client.evaluate(timed(run_id="same"))
    assert ours.status is Status.OK and native.status is Status.OK, (ours.message, native.message)
    assert all(c.passed for c in ours.cases)
    # The kernel's own scalar work is counted in wasm instructions here, x86 ones there.
    assert ours.latency_us == pytest.approx(native.latency_us, rel=0.02)
    assert ours.simulated and ours.profile.block_dim == native.profile.block_dim


def test_a_kernel_has_no_descriptor_to_forge_trace_records_through(guest):
    # The forged-records family wrote block and end records into the trace pipe with libc I/O.
    # Here libc's output reaches no descriptor: the write fails inside the module, metered.
    forger = kernel_with(
        "#include <cstdio>\n#include <unistd.h>\n",
        '  printf("forged");\n  write(3, "E 0 0\\n", 6);\n  std::fflush(stdout);\n',
    )
    forged, base = (guest.evaluate(timed(k, run_id="forge")) for k in (forger, None))
    assert forged.status is Status.OK and base.status is Status.OK, forged.message
    assert forged.latency_us >= base.latency_us
    assert forged.profile.aiv_scalar_time_us > base.profile.aiv_scalar_time_us


def test_logging_macros_of_real_kernels_compile_and_print_nowhere(guest):
    # CANN's OP_LOGD expands to std::printf; some kernels stream to std::cout.
    logger = kernel_with(
        "#include <cstdio>\n#include <iostream>\n"
        '#define OP_LOGD(name, fmt, ...) std::printf("%s " fmt, name, ##__VA_ARGS__)\n',
        '  OP_LOGD("add", "blocks %d", (int)GetBlockNum());\n  std::cout << "LEAK" << std::endl;\n',
    )
    result = guest.evaluate(timed(logger, run_id="logger"))
    assert result.status is Status.OK, result.message
    assert "LEAK" not in result.log_tail + result.message


def test_a_kernel_reaches_no_file_clock_or_randomness(guest):
    for body, call in [
        ('  (void)fopen("/etc/passwd", "r");\n', "path_open"),
        ("  (void)time(nullptr);\n", "clock_time_get"),
        ("  (void)getentropy(nullptr, 0);\n", "random_get"),
    ]:
        prelude = "#include <cstdio>\n#include <ctime>\n#include <unistd.h>\n"
        result = guest.evaluate(timed(kernel_with(prelude, body), run_id="refused"))
        assert result.status is Status.COMPILE_ERROR, body
        assert "not the AscendC API" in result.message and call in result.message


def test_emulation_internals_do_not_exist_in_the_kernels_world(guest):
    # Reached last round by argument-dependent lookup and by rescanning an admitted macro.
    for body in ("  ascendc_sim::CurrentCore();\n", "  (void)ascendc_sim::HostData;\n"):
        result = guest.evaluate(timed(kernel_with(body=body), run_id="internals"))
        assert result.status is Status.COMPILE_ERROR, body


def test_a_pointer_into_gm_reaches_tensor_memory_only_through_the_charged_route(guest):
    # A GM address names a buffer of the host; the kernel's own memory ends below it. A __gm__
    # pointer now reaches GM, but only as the charged scalar access GetValue / SetValue make
    # (tests/guest/test_raw_pointers.py); cast to a plain pointer, it reaches nothing.
    plain = kernel_with(body="  *(volatile uint16_t*)(__gm__ uint16_t*)z = 0x3c00;\n")
    result = guest.evaluate(timed(plain, run_id="pointer"))
    assert result.status is Status.RUNTIME_ERROR
    assert "trapped" in result.message and "out of bounds" in result.message
    charged = kernel_with(
        body="  if (GetBlockIdx() == 0 && ((__gm__ uint16_t*)z)[0] == 0x3c00) ((__gm__ uint16_t*)z)[0] = 0;\n"
        "  PipeBarrier<PIPE_ALL>();\n"
    )
    ok, base = (guest.evaluate(timed(k, run_id="pointer")) for k in (charged, None))
    assert ok.status is Status.OK and base.status is Status.OK, ok.message
    assert ok.profile.aiv_scalar_time_us > base.profile.aiv_scalar_time_us


def test_handles_the_kernel_forges_reach_no_host_memory(guest):
    # A tensor is a handle the guest can forge: the host holds it to its buffer, or to a GM buffer.
    for body, why in [
        (
            "  LocalTensor<half> t(0xFFFFFF00u, 1024, TPosition::VECCALC);\n  Duplicate(t, half(0), 1024);\n",
            "past",
        ),
        (
            "  GlobalTensor<half> g;\n  g.SetGlobalBuffer((__gm__ half*)z);\n"
            "  LocalTensor<half> t(0, 16, TPosition::VECCALC);\n  DataCopy(g[1u << 26], t, 16);\n",
            "no GM buffer",
        ),
    ]:
        result = guest.evaluate(timed(kernel_with(body=body), run_id="forged"))
        assert result.status is Status.RUNTIME_ERROR and why in result.message, result.message


def test_library_code_is_charged_as_the_kernels_scalar_work(guest):
    # Last round 2^21 additions inside a standard-library algorithm cost +4.5 us.
    work = kernel_with(
        "#include <algorithm>\n#include <numeric>\n",
        "  static uint32_t v[1 << 16];\n"
        "  for (uint32_t i = 0; i < (1u << 16); ++i) v[i] = (i * 2654435761u) ^ GetBlockIdx();\n"
        "  std::sort(v, v + (1u << 16));\n"
        "  if (std::accumulate(v, v + (1u << 16), 0u) == 7u) return;\n",
    )
    plain = guest.evaluate(timed(run_id="library"))
    sorted_ = guest.evaluate(timed(work, run_id="library"))
    assert plain.status is Status.OK and sorted_.status is Status.OK, sorted_.message
    # 2^16 elements: ~10^6 comparisons and moves per block, each several instructions, on a
    # scalar unit of ~1.8 GHz: milliseconds, not microseconds.
    assert sorted_.latency_us > plain.latency_us + 1000
    assert sorted_.profile.aiv_scalar_time_us > 1000
