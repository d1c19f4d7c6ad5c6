"""A twelfth red team of the guest engine (issue 50, docs/trust_boundary.md, "A twelfth red team"):
the normalisations' sharedTmpBuffer and tiling structs, cross-core sets, the worker's C++ scanners
and the RL reward service's HTTP face, each asserting the honest outcome against a real daemon.

Safe if containment fails: the kernels loop a bounded number of times (at most 60,000 cheap calls
a core); a host loop the attack steers reads (never writes); each run has at most 60 s and each
package is under 1 MiB. The HTTP tests bind 127.0.0.1 only (the non-loopback one names a daemon
that does not answer, which stops the service before it binds) and send a few hundred bytes.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from ascend_core import cpp
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.rl import RewardService
from ascend_gym.rl.adapters import http as http_adapter

from . import test_guest_boundary as boundary
from .conftest import small_request


@pytest.fixture(scope="module")
def guest(tmp_path_factory) -> DaemonClient:
    """A sim-guest daemon of this module's own, of one worker: its harness gets the memory bound
    of one worker's share, which the cross-core test's 40 x 60,000 waiting sets need (the
    session's two-worker daemon answers it std::bad_alloc)."""
    with LocalDaemon(backend="sim-guest", workers=1, state_dir=tmp_path_factory.mktemp("g")) as d:
        c = DaemonClient(d.address, heartbeat_s=1.0)
        yield c
        c.close()


def checked(kernel: str, run_id: str) -> EvalRequest:
    """level1/add with `kernel`, every case checked, no timing."""
    return EvalRequest(
        run_id=run_id,
        package=resolve("level1/add").with_sources(kernel=kernel),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=120, run_s=60),
    )


# Float operands of a normalisation in a TBuf of 512 floats, set to 1 first: its output at 0, mean
# at 64, variance at 72, input at 128, gamma at 256, beta at 264 (each start 32 B aligned).
NORM_OPERANDS = "norm[0], norm[64], norm[72], norm[128], norm[256], norm[264]"


def norm_buffer(pipe: str) -> str:
    return (
        f"    {pipe}.InitBuffer(normBuf, 512 * sizeof(float));\n"
        "    LocalTensor<float> norm = normBuf.Get<float>();\n"
        "    Duplicate(norm, 1.0f, 512);\n"
        "    PipeBarrier<PIPE_V>();\n"
    )


# ---- GroupNorm: g x d = c checked in 32 bits ------------------------------------------------------
def test_a_group_norm_whose_groups_wrap_is_refused_before_the_host_reads_past_its_input(guest):
    # GroupNormImpl held its tiling to g * d == c in uint32_t: g = 2 and d = 2^31 + 2 give 4 = c,
    # so the host checked its 32-element input and then read d channels of it, 2^31 + 2 of them,
    # past the end of its copy until the kernel's engine (trusted code) died of SIGSEGV. The
    # product is now taken in 64 bits: the call is refused, naming its fields.
    body = (
        "  if (GetBlockIdx() == 0) {\n"
        "    TPipe normPipe;\n"
        "    TBuf<TPosition::VECCALC> normBuf;\n"
        f"{norm_buffer('normPipe')}"
        "    GroupNormTiling t{};\n"
        "    t.n = 1; t.c = 4; t.hw = 8; t.g = 2; t.d = 2147483650u; t.hwAlignSize = 8;\n"
        "    t.factor = 1.0f;\n"
        f"    GroupNorm<float>({NORM_OPERANDS}, 1e-5f, t);\n"
        "  }\n"
    )
    result = guest.evaluate(checked(boundary.kernel_with(body=body), "groupnorm-wrap"))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert "GroupNorm" in result.message and "crashed" not in result.message, result.message


# ---- the sharedTmpBuffer: the library's work space, not the kernel's ------------------------------
def add_calling(call: str) -> str:
    """level1/add whose Compute, after its Add into zLocal, runs `call` (statements over `norm`, its
    own TBuf of 512 floats set to 1) before zLocal is queued out."""
    kernel = resolve("level1/add").files["op_kernel/add.cpp"]
    replacements = (
        (
            "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n",
            "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
            + norm_buffer("pipe"),
        ),
        (
            "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
            "    LocalTensor<float> norm = normBuf.Get<float>();\n"
            f"{call}"
            "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
        ),
        ("  TPipe pipe;\n", "  TPipe pipe;\n  TBuf<TPosition::VECCALC> normBuf;\n"),
    )
    for old, new in replacements:
        assert old in kernel, old
        kernel = kernel.replace(old, new, 1)
    return kernel


def add_with_batch_norm(tmp: str) -> str:
    """add_calling BatchNorm (B 1, S x H 8 floats) with `tmp` as its sharedTmpBuffer (160 bytes
    at the least)."""
    return add_calling(
        "    BatchNormTiling t{};\n"
        "    t.originalBLength = 1; t.meanVarSize = 8; t.firstDimValueBack = 1.0f;\n"
        f"    BatchNorm<float>({NORM_OPERANDS}, {tmp}, 1e-5f, t);\n"
    )


STASH = "zLocal.ReinterpretCast<uint8_t>()"  # the sums, before their copy out


@pytest.mark.parametrize(
    "kernel",
    [
        pytest.param(add_with_batch_norm(STASH), id="BatchNorm"),
        pytest.param(add_calling(f"    Sinh<float>(norm[0], norm[128], {STASH}, 8);\n"), id="Sinh"),
    ],
)
def test_what_a_kernel_keeps_in_the_sharedtmpbuffer_does_not_survive_the_call(guest, kernel):
    # The device keeps an API's intermediate values in its sharedTmpBuffer; the emulation computed
    # from copies and never wrote it, so a kernel could park its results there across the call
    # (here: the sums in zLocal) and be right only here. Every API's buffer is now a scratch
    # access of IssueVector, left holding 0xFF bytes: the parked sums are NaN, a wrong answer.
    result = guest.evaluate(checked(kernel, "tmp-stash"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)


def test_a_sharedtmpbuffer_overlapping_an_operand_is_refused(guest):
    # The same call with the tmp over BatchNorm's own input: on the device its work space writes
    # over the input it still reads; here the input was copied first, so the answer was right and
    # the kernel saved the tmp's UB. Refused now, naming both ranges.
    kernel = add_with_batch_norm("normBuf.Get<uint8_t>()[128 * sizeof(float)]")
    result = guest.evaluate(checked(kernel, "tmp-overlap"))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert "sharedTmpBuffer" in result.message and "overlaps" in result.message, result.message


def test_an_honest_sharedtmpbuffer_leaves_the_kernel_right(guest):
    # A tmp of its own, apart from every operand: the same kernel is OK.
    kernel = add_with_batch_norm("normBuf.Get<uint8_t>()[384 * sizeof(float)]")
    result = guest.evaluate(checked(kernel, "tmp-apart"))
    assert result.status is Status.OK, (result.status, result.message)


# ---- cross-core flags: the host's work per set ---------------------------------------------------
def test_cross_core_sets_waiting_for_their_partners_cost_the_host_linear_work(guest):
    # A mode-0 CrossCoreSetFlag counts up once every AIV of the launch has set; until then each
    # core's sets wait in a list, and every completed flag took each setter's oldest set by
    # erasing a vector's front: all the sets behind it moved, up to 39 x 60,000 a set here (40
    # AIVs of 60,000 sets): the run timeout (60 s, RUN_TIMEOUT) for 3.6 million cheap instructions
    # on the launch's 60 cores. A deque takes the oldest in constant time (14.8 s).
    # The kernel writes no output: its honest outcome is a prompt WRONG_ANSWER. Cross-core flags
    # make it a mixed launch, one wave of 20 groups (an AIC and two AIVs each).
    body = "  for (int i = 0; i < 60000; ++i) CrossCoreSetFlag<0x0, PIPE_MTE3>(3);\n  return;\n"
    request = checked(boundary.kernel_with(body=body), "cross-sets")
    tiling = re.sub(r"BLOCK_DIM = \d+;", "BLOCK_DIM = 20;", request.package.tiling_source)
    request = request.model_copy(update={"package": request.package.with_sources(tiling=tiling)})
    result = guest.evaluate(request)
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)


# ---- the C++ scanner the worker runs over the package's files ------------------------------------
def test_an_unclosed_comment_repeated_does_not_hold_the_worker(guest):
    # ascend_core.cpp.code_view (guest_lp64.spells_long runs it in the worker over every file a
    # kernel compile may read, before any build; the kernel's tiling view over the tiling header)
    # matched a block comment lazily to its `*/`: an unclosed `/*` was tried again from each later
    # opener over the rest of the text, 71 s for 40,000 of them (120 KB) and about 30 minutes for
    # this header's 200,000, outside every timeout. An unclosed comment now runs to the end.
    pkg = resolve("level1/add")
    files = {**pkg.files, "op_kernel/notes.h": "/*a" * 200_000}
    request = small_request(pkg.model_copy(update={"files": files}), "unclosed-comments")
    client = DaemonClient(guest.address, timeout_s=60.0, heartbeat_s=1.0)
    try:
        started = time.monotonic()
        result = client.evaluate(request)
    finally:
        client.close()
    assert result.status is Status.OK, (result.status, result.message)
    assert time.monotonic() - started < 60.0


def test_the_scanner_keeps_no_large_source_past_its_call():
    # Its cache held 64 sources of any size, with their views: a worker kept 64 candidates' 16 MiB
    # files (2 GiB) past their evaluations. Sources over a MiB are viewed uncached.
    before = cpp._cached_view.cache_info().currsize
    view = cpp.code_view("x;\n" * (1 << 19) + "// the end")
    assert view.endswith(" " * len("// the end"))
    assert cpp._cached_view.cache_info().currsize == before


# ---- the RL reward service's HTTP face: what a client declares, and where it listens -------------
@pytest.fixture(scope="module")
def reward_http(daemon):
    with RewardService([daemon.address]) as service:
        httpd = http_adapter.server(service)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        yield httpd.server_port
        httpd.shutdown()


def first_line(port: int, head: str) -> bytes:
    """The status line the server answers a request of `head` (no body) with, within 10 s."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head.encode())
        try:
            return s.recv(4096).split(b"\r\n", 1)[0]
        except TimeoutError:
            return b"(no answer in 10 s)"


@pytest.mark.parametrize("length", ["17179869184", None, "-1"])
def test_a_reward_request_declares_a_bounded_body_or_is_refused(reward_http, length):
    # The handler read int(Content-Length) bytes unchecked: 16 GiB declared held a thread on the
    # read (and every byte sent in memory); none declared raised in the handler (no answer); -1
    # read until the client closed. Each is a 413 now, before a byte of the body is read.
    declared = f"Content-Length: {length}\r\n" if length is not None else ""
    head = f"POST /get_reward HTTP/1.1\r\nHost: x\r\n{declared}\r\n"
    assert first_line(reward_http, head).startswith(b"HTTP/1.0 413"), length


def test_reward_requests_hold_a_bounded_sum_of_bodies(reward_http):
    # Each connection had a thread and each thread a body of any size: many clients, each
    # declaring its bound and sending slowly, made the server hold that many times over. The
    # bodies being read and scored share one bound now: a request past what is left is a 503
    # (retried by OpenRLHF's client) before a byte of it is read. Here one client holds 200 MiB
    # declared and sends nothing; a second declares 100 MiB.
    head = "POST /get_reward HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", reward_http), timeout=10) as holder:
        holder.sendall(head.format(200 << 20).encode())
        time.sleep(1.0)  # the server has read its head and waits for its body
        assert first_line(reward_http, head.format(100 << 20)).startswith(b"HTTP/1.0 503")


def test_the_reward_endpoint_refuses_a_bind_beyond_loopback():
    # Every request is an evaluation charged to the service's run, and its reward says whether a
    # candidate is right; the daemon refuses a bind beyond loopback without CURVE keys, this
    # endpoint bound whatever --host said. The daemon named answers nothing: on a tree without
    # the rule the service fails to start (DaemonError) before anything binds.
    command = [sys.executable, "-m", "ascend_gym.rl.adapters.http", "--host", "0.0.0.0"]
    command += ["--port", "0", "--daemons", "tcp://127.0.0.1:1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "beyond loopback" in done.stderr, done.stderr[-400:]
