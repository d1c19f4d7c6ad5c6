"""A tenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A tenth red team"):
the two items the ninth round left open, and new families, each asserting the honest outcome
against a real daemon.

Safe if containment fails: the kernels loop a bounded number of times, each run has at most 60 s,
and the daemon's memory bound in the test is small.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, EvalResult, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.sim.backend import (
    DEFAULT_SHARE_MB,
    HARNESS_MIN_MB,
    RESERVED_MB,
    default_workers,
    process_bound_mb,
)

from . import test_guest_boundary as boundary
from .conftest import client_operator, small_request
from .test_guest_boundary import kernel_with, timed

guest = boundary.guest  # a sim-guest daemon of this module's own


# ---- GET_TILING_DATA: the copy charged per word, on both engines ----------------------------------
def padded_add(words: int) -> EvalRequest:
    """level1/add with `words` more 32-bit words in its tiling struct, which GET_TILING_DATA copies
    whole: the same work otherwise, one timed case."""
    pkg = resolve("level1/add")
    header = pkg.files["op_host/add_tiling.h"]
    field = f"TILING_DATA_FIELD_DEF_ARR(uint32_t, {words}, pad);\nEND_TILING_DATA_DEF;"
    pkg = pkg.with_sources(tiling_header=header.replace("END_TILING_DATA_DEF;", field, 1))
    return EvalRequest(
        run_id=f"tiling-{words}",
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        cases=["aligned_fp16"],
        timeouts=Timeouts(build_s=120, run_s=60),
    )


def scalar_us(result: EvalResult) -> float:
    assert result.status is Status.OK, (result.status, result.message)
    return result.profile.aiv_scalar_time_us


@pytest.mark.parametrize("engine", ["sim-guest", "sim"])
def test_the_tiling_datas_copy_is_charged_per_word(guest, native_client, engine):
    # GET_TILING_DATA was one import on the guest engine whatever its size (a memcpy on the native
    # one, inline moves or a library call): a kernel could take 64 KiB of tables from its tiling
    # for the price of a call (1 and 4,096 words: 1.80 us of scalar time on the guest engine, 1.81 us
    # on the native one). The device loads the tiling from GM with the scalar unit, a word at a time
    # through its data cache; both engines now charge that (Core::ScalarGmWordsCost).
    client = guest if engine == "sim-guest" else native_client
    small, large = (scalar_us(client.evaluate(padded_add(words))) for words in (1, 4096))
    # 4,095 words more: 256 lines, each a miss (181 cycles) and 15 hits (9 cycles), per block.
    assert large - small > 20.0, (small, large)


# ---- the harness's memory: a share of the machine, not a constant past it ------------------------
@pytest.fixture(scope="module")
def bounded(tmp_path_factory) -> DaemonClient:
    """A sim-guest daemon told its machine has the memory for one worker's harness processes of
    the smallest bound (--memory-mb): HARNESS_MIN_MB each."""
    memory = RESERVED_MB + 2 * HARNESS_MIN_MB
    extra = ["--memory-mb", str(memory)]
    state = tmp_path_factory.mktemp("bounded")
    with LocalDaemon(backend="sim-guest", workers=1, state_dir=state, extra_args=extra) as d:
        c = DaemonClient(d.address, heartbeat_s=1.0)
        yield c
        c.close()


def test_a_kernel_past_the_harness_memory_bound_is_a_charged_runtime_error(bounded):
    # Each harness process had 16 GiB plus twice the GM of address space, whatever the machine: with
    # two workers on this 23 GiB machine, what a kernel made the emulation hold (here a block's trace
    # of 12 million barriers, about 1.5 GB, for a few instructions of fuel each) was bounded by the run
    # timeout, not by the memory. Now each process has its share of the machine's memory, and a
    # kernel past it stops with a charged RUNTIME_ERROR naming the bound.
    hog = kernel_with(
        body="  if (GetBlockIdx() == 0) for (int i = 0; i < 12000000; ++i) PipeBarrier<PIPE_V>();\n"
    )
    request = timed(hog, run_id="trace-hog")
    result = bounded.evaluate(
        request.model_copy(update={"timeouts": Timeouts(build_s=120, run_s=60)})
    )
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert f"memory bound: {HARNESS_MIN_MB} MiB" in result.message, result.message
    assert result.charged, result.cost
    honest = bounded.evaluate(timed(run_id="honest-bounded"))
    assert honest.status is Status.OK, (honest.status, honest.message)


def test_a_mixed_launch_past_the_bound_is_charged_and_names_it(bounded):
    # A mixed launch reserves 64 MiB of guest memory a core (matmul_bias_relu: 2,654 MiB at its
    # peak), past the 1,024 MiB share here. The candidate chose the blocks that size it, so it stays
    # a charged RUNTIME_ERROR; its message was wasmtime's or the thread library's alone ("mmap failed
    # to reserve", "Resource temporarily unavailable") and now names the bound and the reservation.
    request = small_request(resolve("level2/matmul_bias_relu"), run_id="mixed-bounded", run_s=60)
    result = bounded.evaluate(request.model_copy(update={"cases": None}))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert f"memory bound: {HARNESS_MIN_MB} MiB" in result.message, result.message
    assert "reserves 64 MiB" in result.message, result.message
    assert result.charged, result.cost


def test_a_daemon_whose_workers_cannot_run_the_smallest_case_refuses_to_start(tmp_path: Path):
    memory = RESERVED_MB + 2 * 4 * HARNESS_MIN_MB - 1  # four workers' share just short of the bound
    args = ["--backend", "sim-guest", "--workers", "4", "--memory-mb", str(memory)]
    args += ["--bind", "tcp://127.0.0.1:*", "--state-dir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-m", "npu_daemon", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert "refusing to start" in done.stderr and f"{HARNESS_MIN_MB} MiB" in done.stderr, (
        done.stderr
    )


def test_the_default_worker_count_leaves_each_process_the_suites_largest_launch():
    # A default of one worker a core made a 16-core machine of 32 GiB refuse to start (960 MiB a
    # process); fewer workers by default, each with room for the suite's mixed launches.
    for memory, cores in ((32768, 16), (24105, 2), (16384, 8), (1 << 20, 192), (4096, 4)):
        workers = default_workers(memory, cores)
        assert 1 <= workers <= cores
        if workers > 1:
            assert process_bound_mb(memory, workers) >= DEFAULT_SHARE_MB, (memory, cores)
    assert default_workers(24105, 2) == 2  # this machine: its two cores
    assert default_workers(32768, 16) == 3


HONEST_REFERENCE = "import numpy as np\n\n\ndef add(x, y):\n    return x + y\n"
HOARDER = (
    "import numpy as np\n\n\ndef add(x, y):\n"
    "    held = np.ones(3 << 28, np.uint8)  # 768 MiB, touched\n"
    "    return x + y + held[:1].astype(x.dtype) - 1\n"
)


def test_a_clients_reference_is_held_to_the_same_share_of_the_machine(bounded, tmp_path):
    # A client's own operator brings its reference, run in the sandbox with 16 GiB of address space
    # plus its inputs and outputs: two workers' references could hold 32 GiB of this 23 GiB
    # machine. Now every sandboxed process of a worker has its share (sandbox.cap_memory): past
    # it the reference fails, charged, naming the bound.
    root = client_operator(tmp_path, "add_hoard", HOARDER)
    result = bounded.evaluate(small_request(load_package(root), run_id="hoard"))
    assert result.status is Status.REJECTED, (result.status, result.message)
    assert f"memory bound: {HARNESS_MIN_MB} MiB" in result.message, result.message
    assert result.charged, result.cost
    (root / "reference.py").write_text(HONEST_REFERENCE)
    honest = bounded.evaluate(small_request(load_package(root), run_id="hoard-honest"))
    assert honest.status is Status.OK, (honest.status, honest.message)
