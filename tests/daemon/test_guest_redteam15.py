"""A fifteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A fifteenth red
team"): the element-wise math APIs' sharedTmpBuffer past its documented maximum, Power of two
tensors' buffer, a source lent to the normalisations with isReuseSource, and generation's foreign
code (a model's DSL program, a task's reference) in the process that judges what it made, each
asserting the honest outcome against a real daemon or the in-process evaluation.

Safe if containment fails: the kernels are level1/add with one more call, run by the session's
sim-guest daemon as its unprivileged user; the foreign programs only rebind a function of their
own interpreter and, on the fixed tree, run in a child with read-only filesystems.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC, Status
from ascend_gym import suite_validate
from ascend_gym.commands import generate as generate_command
from ascend_gym.dsl import confined
from ascend_gym.dsl.generate import generate_offline, offline_draft, spec_only
from ascend_gym.dsl.model import ModelGenerator
from ascend_gym.rl.adapters import http
from ascend_gym.rl.service import RewardService
from npu_daemon import sandbox

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import NORM_OPERANDS, add_calling, checked

guest = boundary.guest  # the session's sim-guest daemon

# After the call, the kernel multiplies its sums by the float it kept at `norm[KEPT]` (1.0 unless
# the call wrote it), read once the vector pipe is done.
MULTIPLY_BY_KEPT = (
    "    PipeBarrier<PIPE_ALL>();\n"
    "    const float kept = norm.GetValue({kept});\n"
    "    Muls(zLocal, zLocal, static_cast<DTYPE_Z>(kept), (len + alignElems - 1) / alignElems"
    " * alignElems);\n"
)


# ---- the element-wise math APIs' sharedTmpBuffer past their maximum -------------------------------
@pytest.mark.parametrize(
    ("call", "kept"),
    [
        # GetSigmoidMaxMinTmpSize of 8 floats: 512 bytes; the 1.0 at byte 896 of the buffer.
        pytest.param("Sigmoid<float>(norm[0], norm[128], tmp, 8);", 480, id="Sigmoid"),
        # GetSinMaxMinTmpSize of 8 floats: 768 bytes.
        pytest.param("Sin<float>(norm[0], norm[128], tmp, 8);", 480, id="Sin"),
        # Log takes no buffer (asc-devkit's log_tiling.cpp): its first byte stays the kernel's
        # (a control: Log is one step, whose buffer was never recorded).
        pytest.param("Log<float>(norm[0], norm[128], tmp, 8);", 256, id="Log"),
    ],
)
def test_an_element_wise_apis_buffer_keeps_its_tail_past_the_maximum(guest, call, kept):
    # The fourteenth round left it open: the element-wise math APIs took their whole
    # sharedTmpBuffer as written, while their host helpers (GetSigmoidMaxMinTmpSize and the rest)
    # give the most a call uses ("space past it is not used by the API"). An honest kernel that
    # keeps a 1.0 in a 1,024-byte buffer past that maximum and multiplies its sums by it after the
    # call was charged WRONG_ANSWER. The kernel side now takes the helpers' own numbers.
    kernel = add_calling(
        "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n"
        f"    {call}\n" + MULTIPLY_BY_KEPT.format(kept=kept)
    )
    result = guest.evaluate(checked(kernel, "math-tmp-tail"))
    assert result.status is Status.OK, (result.status, result.message)


# ---- a math API's buffer over the kernel's own data -----------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        # asc-devkit's A2 PowerImpl keeps its float copies of both operands in the buffer
        # (GetPowerMaxMinTmpSize: 1,280 bytes for 8 floats); the emulation took it as unused.
        pytest.param(
            "Power<float>(norm[0], norm[128], norm[256], sums, 8);", id="Power-two-tensors"
        ),
        # One-step calls: the buffer was recorded on the steps before the last, of which they
        # have none (GetClampMaxMinTmpSize: 256 bytes; GetExpMaxMinTmpSize: 768).
        pytest.param("ClampMax<float>(norm[0], norm[128], sums, 1.0f, 8);", id="ClampMax"),
        pytest.param("Exp<float, 0>(norm[0], norm[128], sums, 8);", id="Exp-level-0"),
    ],
)
def test_a_math_apis_buffer_over_the_sums_is_written(guest, call):
    # A kernel that lends its sums (zLocal, before their copy out) as a math API's sharedTmpBuffer
    # was right only here: OK, where the device keeps the library's intermediate values there.
    # The buffer is now written up to its host helper's maximum by every step of the call, on both
    # engines (the guest now passes Power's buffer too): WRONG_ANSWER.
    kernel = add_calling(
        f"    LocalTensor<uint8_t> sums = zLocal.template ReinterpretCast<uint8_t>();\n    {call}\n"
    )
    result = guest.evaluate(checked(kernel, "math-tmp-over-sums"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)


# ---- isReuseSource for the normalisations ----------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        pytest.param(
            "LayerNormTiling t{};\n"
            "    t.bLength = 1; t.sLength = 1; t.hLength = 8; t.originalHLength = 8;\n"
            f"    LayerNorm<float, true>({NORM_OPERANDS}, normBuf.Get<uint8_t>()[1280], 1e-5f, t);",
            id="LayerNorm",
        ),
        pytest.param(
            "GroupNormTiling t{};\n"
            "    t.n = 1; t.c = 1; t.hw = 8; t.g = 1; t.d = 1; t.hwAlignSize = 8; t.factor = 0.125f;\n"
            f"    GroupNorm<float, true>({NORM_OPERANDS}, normBuf.Get<uint8_t>()[1280], 1e-5f, t);",
            id="GroupNorm",
        ),
    ],
)
def test_a_source_lent_to_a_norm_is_not_the_kernels_after_the_call(guest, call):
    # LayerNorm and GroupNorm of float keep their first work tensor in inputX when it is lent
    # (asc-devkit's GetLayerNormNDTensorInfo and GetGroupNormNDTensorInfo; the host helpers count
    # one buffer fewer for it). The guest passed GroupNorm's flag and dropped LayerNorm's, and the
    # host acted on neither: a kernel that lent its input and read it after the call was right only
    # here (OK). The lent source is now left as the library leaves it (0xFF bytes): WRONG_ANSWER.
    kernel = add_calling(f"    {call}\n" + MULTIPLY_BY_KEPT.format(kept=128))
    result = guest.evaluate(checked(kernel, "norm-reuse"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)


# ---- generation's foreign code and the verdict on what it made ----------------------------------
# Rebinds the in-process evaluation, where the interpreter it runs in has one, to report every
# kernel it judges as OK in a nanosecond.
VERDICT_PATCH = """
try:
    import npu_daemon.evaluation as _evaluation

    _judge = _evaluation.evaluate_alone

    def _flattering(*args, **kwargs):
        from ascend_core.protocol import Status

        result = _judge(*args, **kwargs)
        return result.model_copy(update={"status": Status.OK, "latency_us": 0.001, "cases": []})

    _evaluation.evaluate_alone = _flattering
except Exception:
    pass
"""


@dataclass
class Reply:
    content: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class OneReply:
    """A model that answers every prompt with one program."""

    def __init__(self, program: str):
        self.program = program

    def chat(self, messages: list[dict[str, str]], seed: int | None = None) -> Reply:
        return Reply(f"```python\n{self.program}\n```")


def assert_wrong_add_judged_wrong(head: str) -> None:
    """A model answering `head` then an add that computes `x - y`: no package passes, and the
    kernel's check says WRONG_ANSWER."""
    source = spec_only(suite.resolve("level1/add"))
    wrong = offline_draft(source).source.replace("v2 = v0 + v1", "v2 = v0 - v1")
    assert "v0 - v1" in wrong
    made, log = ModelGenerator(OneReply(head + wrong), repairs=0).generate(
        source, lambda pkg: generate_command._evaluate(pkg, DEFAULT_SOC)
    )
    assert made is None, log.attempts
    assert log.attempts[0].error.startswith("WRONG_ANSWER"), log.attempts[0].error


def test_a_models_program_never_judges_its_own_kernel():
    # `ascend-gym generate --model` (and the generate policy) ran the model's DSL program in the
    # process that then judged the lowered kernel (`_evaluate`, the daemon's evaluation in
    # process). A program that rebinds that evaluation made its wrong kernel (x - y for add) pass
    # its check, OK in 0.001 us. The program now runs in a confined child that answers with the
    # package as data: the kernel is judged as it is, WRONG_ANSWER.
    assert_wrong_add_judged_wrong(VERDICT_PATCH)


def test_a_references_module_never_judges_the_kernel_generated_from_it():
    # Offline generation traced the operator's reference (a client operator's `reference.py`, a
    # cann-bench task's golden) in the caller's own process, running its module's top level
    # there: one that rebinds the in-process evaluation gave the kernel generated from it a
    # latency of 0.001 us when `ascend-gym generate --check` or `cann-bench run` judged it. The
    # reference is now traced in the confined child; the kernel is timed as it is.
    add = suite.resolve("level1/add")
    reference = VERDICT_PATCH + "\n\ndef add(x, y):\n    return x + y\n"
    own = add.model_copy(update={"files": {**add.files, "reference.py": reference}, "uri": ""})
    made, _ = generate_offline(own)
    outcome = suite_validate.evaluate(made, DEFAULT_SOC)
    assert outcome.ok, outcome
    assert outcome.latency_us is not None and outcome.latency_us > 0.01, outcome


def _escape_attempts(parent: int, secret_at: int, size: int, written: str) -> dict[str, object]:
    """In generation's child: read the parent's memory, undo the read-only mounts, write a file.
    `parent`: the judging process's id, which the child's getppid() no longer gives (its own PID
    namespace, round 16)."""
    out: dict[str, object] = {}
    try:
        with open(f"/proc/{parent}/mem", "rb") as mem:
            mem.seek(secret_at)
            out["memory"] = mem.read(size).hex()
    except OSError as e:
        out["memory"] = e.errno
    attr = sandbox._MountAttr(attr_clr=sandbox.MOUNT_ATTR_RDONLY)
    rc = sandbox._libc.syscall(
        sandbox.SYS_MOUNT_SETATTR,
        sandbox.AT_FDCWD,
        b"/",
        sandbox.AT_RECURSIVE,
        ctypes.byref(attr),
        ctypes.sizeof(attr),
    )
    out["remount"] = rc
    try:
        Path(written).write_text("escaped")
        out["write"] = "wrote"
    except OSError as e:
        out["write"] = e.errno
    return out


def test_generations_child_reaches_neither_its_parents_memory_nor_a_file(tmp_path):
    # The confined child of a root process kept every capability: it read (and could have written)
    # the parent's memory through /proc/PID/mem, where the verdict of the generated kernel is
    # made, and cleared the read-only mounts again, then wrote a file (found by the lead reviewing
    # round 15). The child now drops every capability once confined.
    secret = ctypes.create_string_buffer(b"the parent's verdict")
    written = tmp_path / "escaped"
    parent = os.getpid()  # here, not in the child: its own id there is another process's
    out = confined.run(
        lambda: _escape_attempts(parent, ctypes.addressof(secret), len(secret.raw), str(written)),
        dict[str, int],
    )
    assert out["memory"] == errno.EACCES, out
    assert out["remount"] == -1, out
    assert out["write"] == errno.EROFS, out
    assert not written.exists()


# ---- the reward endpoint's labels ------------------------------------------------------------------
def test_a_reward_label_is_a_suite_operators_address(daemon, tmp_path):
    # The endpoint resolved each label as `suite.resolve` does for a researcher: a directory path
    # on the service's host, `..` out of a suite's directory, and every spelling of one operator
    # as an operator of its own. A client thus had the service read any operator its user can
    # (evaluated and charged to the service's run; 200 here, the completion a format error), and
    # each new spelling (`level1/./add`) cost a baseline evaluation kept for the service's life.
    # A label is now a suite operator's address or a 400, before anything is read.
    shutil.copytree(suite.SUITE_ROOT / "level1" / "add", tmp_path / "add")
    labels = [str(tmp_path / "add"), "level1/./add", "op://ascend-ops-v1/level1/../level1/add"]
    with RewardService([daemon.address]) as service:
        for label in labels:
            body = json.dumps({"query": ["no code"], "labels": [label]}).encode()
            status, answer = http.answer(service, body)
            assert status == 400, (label, status, answer)
        status, answer = http.answer(
            service, json.dumps({"query": ["no code"], "labels": ["level1/add"]}).encode()
        )
        assert status == 200 and answer["rewards"][0] is not None, answer  # a format error, scored
