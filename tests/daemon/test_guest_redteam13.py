"""A thirteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A thirteenth red
team"): the whole-range reductions' work tensor, a source lent with isReuseSource, the
sharedTmpBuffer past its API's documented maximum and the RL reward endpoint's connections, each
asserting the honest outcome against a real daemon.

Safe if containment fails: the kernels are level1/add with one more vector call; the reward
endpoint runs in a process of its own bound to 127.0.0.1 with 128 descriptors, and the test opens
at most 160 connections to it, sends a few hundred bytes and kills it after.
"""

from __future__ import annotations

import resource
import socket
import subprocess
import sys

import pytest

from ascend_core.protocol import Status
from ascend_core.suite import resolve

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
