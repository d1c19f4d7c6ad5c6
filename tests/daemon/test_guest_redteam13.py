"""A thirteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A thirteenth red
team"): the whole-range reductions' work tensor, a source lent with isReuseSource, the
sharedTmpBuffer past its API's documented maximum and the RL reward endpoint's connections, each
asserting the honest outcome against a real daemon. Its second pass (s19red2): the cann-bench
path's references, the sampled runs and the host tiling program.

Safe if containment fails: the kernels are level1/add with one more vector call; the reward
endpoint runs in a process of its own bound to 127.0.0.1 with 128 descriptors, and the test opens
at most 160 connections to it, sends a few hundred bytes and kills it after. The second pass's
client reference runs in the daemon's reference sandbox and reads 8 elements of its input.
"""

from __future__ import annotations

import math
import resource
import socket
import subprocess
import sys

import numpy as np
import pytest

from ascend_core.protocol import Status
from ascend_core.suite import resolve
from npu_daemon.backends.sim import case_data

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import NORM_OPERANDS, add_calling, checked

guest = boundary.guest  # a sim-guest daemon of this module's own


# ---- the whole-range reductions' work tensor: the library's first level, not the kernel's --------
def add_reducing_into(work: str) -> str:
    """level1/add whose Compute, after its Add into zLocal, takes the maximum of xLocal's `len`
    elements into a tensor of its own with `work` as the work tensor."""
    return add_calling(
        "    LocalTensor<DTYPE_Z> peak = normBuf.Get<DTYPE_Z>();\n"
        f"    ReduceMax<DTYPE_Z>(peak, xLocal, {work}, len);\n"
    )


@pytest.mark.parametrize(
    ("work", "status"),
    [
        pytest.param("zLocal", Status.WRONG_ANSWER, id="over-the-sums"),
        pytest.param("normBuf.Get<DTYPE_Z>()[128]", Status.OK, id="apart"),
    ],
)
def test_what_a_kernel_keeps_in_a_reductions_work_tensor_does_not_survive_it(guest, work, status):
    # Over more than one repeat the device's ReduceMax writes each repeat's maximum and its lane
    # into the work tensor, then reduces those: the sums parked there (zLocal, before its copy
    # out) are gone. The emulation reduced from src alone and never wrote work, so the kernel was
    # right only here (and a work tensor smaller than that first level was cut to its size, never
    # written past). The first level is now written into work, over its whole extent; a work
    # tensor of its own leaves the kernel right (the control).
    result = guest.evaluate(checked(add_reducing_into(work), f"reduce-work-{work[:5]}"))
    assert result.status is status, (result.status, result.message)


# ---- isReuseSource: the source as the library's work space -------------------------------------
def test_a_source_lent_with_isreusesource_is_not_the_kernels_after_the_call(guest):
    # Sigmoid<float, true> may keep its intermediate values in its source ("whether the source
    # operand may be modified"); the emulation never wrote it, so a kernel that lends x this way
    # and then adds x to y was right only here (OK on main). A float source lent so now holds
    # 0xFF bytes after the call: the float case is a WRONG_ANSWER (half cannot reuse its source).
    kernel = resolve("level1/add").files["op_kernel/add.cpp"]
    call = "    Add(zLocal, xLocal, yLocal, (len + alignElems - 1) / alignElems * alignElems);\n"
    assert call in kernel
    lend = "    Sigmoid<DTYPE_X, true>(zLocal, xLocal, (len + alignElems - 1) / alignElems * alignElems);\n"
    result = guest.evaluate(checked(kernel.replace(call, lend + call), "reuse-source"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)
    assert "fp32" in result.message, result.message


# ---- the sharedTmpBuffer past the API's documented maximum: the kernel's own --------------------
def test_a_sharedtmpbuffer_keeps_its_tail_past_the_apis_maximum(guest):
    # The twelfth round's rule took the whole sharedTmpBuffer as written. GetBatchNormMaxMinTmpSize
    # documents its maxValue as the most the API uses ("space past it is not used"): 160 bytes
    # for B 1 and S x H 8 floats. Here the buffer runs 768 bytes, and the kernel keeps a 1.0 at
    # its byte 320, which it multiplies its sums by after the call: right on the device, a false
    # WRONG_ANSWER when the tail was clobbered. Only the documented maximum is written now.
    kernel = add_calling(
        "    BatchNormTiling t{};\n"
        "    t.originalBLength = 1; t.meanVarSize = 8; t.firstDimValueBack = 1.0f;\n"
        f"    BatchNorm<float>({NORM_OPERANDS}, normBuf.Get<uint8_t>()[1280], 1e-5f, t);\n"
        "    PipeBarrier<PIPE_ALL>();\n"
        "    const float kept = norm.GetValue(400);\n"
        "    Muls(zLocal, zLocal, static_cast<DTYPE_Z>(kept), (len + alignElems - 1) / alignElems"
        " * alignElems);\n"
    )
    result = guest.evaluate(checked(kernel, "tmp-tail"))
    assert result.status is Status.OK, (result.status, result.message)


# ---- the RL reward endpoint's connections --------------------------------------------------------
def answer_line(port: int, timeout_s: float = 10.0) -> bytes:
    """The status line of a small (malformed: a 400) request to the endpoint, or what happened."""
    body = b"{}"
    head = f"POST /get_reward HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as s:
            s.sendall(head.encode() + body)
            return s.recv(4096).split(b"\r\n", 1)[0]
    except OSError as e:
        return f"(no answer: {type(e).__name__})".encode()


def few_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))


def test_idle_connections_do_not_hold_the_reward_endpoint(daemon):
    # Each connection to the endpoint was a thread and a descriptor, let go only after a minute
    # without a byte (and never while a byte a minute arrives): clients that connect and send
    # nothing held every descriptor, the accept failed, and no other client was answered. The
    # endpoint now holds at most the daemon's bound of connections (here a quarter of its 128
    # descriptors) and cuts the one sending its request the longest. Its answer to a malformed
    # request is a 400, which evaluates nothing.
    command = [sys.executable, "-m", "ascend_gym.rl.adapters.http", "--port", "0"]
    command += ["--daemons", daemon.address]
    server = subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, preexec_fn=few_descriptors
    )
    idle: list[socket.socket] = []
    try:
        port = None
        for line in server.stderr:
            if line.startswith("serving /get_reward on"):
                port = int(line.rsplit(":", 1)[1])
                break
        assert port is not None, "the endpoint did not start"
        assert answer_line(port).startswith(b"HTTP/1.0 400")
        for _ in range(160):
            try:
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                break  # the server's backlog is full: it accepts no more
        assert answer_line(port).startswith(b"HTTP/1.0 400")
    finally:
        for s in idle:
            s.close()
        server.kill()
        server.wait()


# ---- the second pass (s19red2): a client's reference and the kept inputs of a suite operator -----
# Reads 8 elements of x and spells their bytes in letters, which no digit filter withholds.
LEAKING_REFERENCE = """import numpy as np


def add(x, y):
    head = np.asarray(x, dtype=np.float16).reshape(-1)[:8].tobytes()
    raise ValueError("kept " + "".join(chr(97 + (b >> 4)) + chr(97 + (b & 15)) for b in head))
"""


def spelled(raw: bytes) -> str:
    return "kept " + "".join(chr(97 + (b >> 4)) + chr(97 + (b & 15)) for b in raw)


def bench_heads(nbytes: int) -> set[str]:
    """The first 8 elements of x, spelled, of every kept entry of the case cache holding an x of
    `nbytes` bytes (level1/add's bench case, whatever the daemon's secret drew)."""
    return {
        spelled(np.fromfile(path, dtype=np.float16, count=8).tobytes())
        for path in case_data.root().glob("*/in_x.bin")
        if path.stat().st_size == nbytes
    }


def test_a_clients_reference_never_reads_the_inputs_a_suite_operator_is_judged_on(guest):
    # The bench case of level1/add is kept across evaluations (too large to draw per candidate),
    # its numbers withheld from every message. It was drawn from the spec, the case and the seed
    # only: a package carrying level1/add's spec unchanged and a reference of its own (so its own
    # operator, the reference run sandboxed) read the very inputs the suite's candidates are
    # judged on, and its failure came back as the REJECTED message, in letters. A client's
    # reference now draws a kept case keyed on its own source.
    add = resolve("level1/add")
    bench = next(c for c in add.spec.cases if c.name == "bench_fp16")
    assert not case_data.drawn_fresh(add, bench)
    honest = checked(add.kernel_source, "kept-honest").model_copy(update={"cases": [bench.name]})
    assert guest.evaluate(honest).status is Status.OK
    judged = bench_heads(math.prod(add.spec.arg_shape(bench, "x")) * 2)
    assert judged, "no kept entry of the bench case"
    own = add.model_copy(
        update={"files": {**add.files, "reference.py": LEAKING_REFERENCE}, "uri": ""}
    )
    leak = checked(add.kernel_source, "kept-leak").model_copy(
        update={"package": own, "cases": [bench.name]}
    )
    result = guest.evaluate(leak)
    assert result.status is Status.REJECTED, (result.status, result.message)
    assert "kept " in result.message, result.message  # the reference ran, on inputs of its own
    assert not any(head in result.message for head in judged), result.message


# ---- the second pass: the host tiling program's record past the TilingContext's capacity --------
def test_a_tiling_cannot_hand_the_kernel_more_tiling_data_than_the_context_holds(guest):
    # The TilingContext's raw tiling data holds 64 KiB (the device's tiling too is bounded), but
    # its buffer is a public vector the tiling can resize, and the tiling process reports the
    # capacity it finds. The launcher took any capacity up to 4 GiB: the kernel's GM got a tiling
    # buffer of that size, host-computed for free. A capacity past the context's is refused.
    add = resolve("level1/add")
    save = "  tiling.SaveToBuffer("
    tiling = add.files[add.host_path]
    assert save in tiling
    grown = tiling.replace(save, "  context->GetRawTilingData()->buf_.resize(1 << 20);\n" + save, 1)
    request = checked(add.kernel_source, "tiling-capacity")
    request = request.model_copy(update={"package": request.package.with_sources(tiling=grown)})
    result = guest.evaluate(request)
    assert result.status is Status.TILING_ERROR, (result.status, result.message)
    assert "65536" in result.message, result.message
