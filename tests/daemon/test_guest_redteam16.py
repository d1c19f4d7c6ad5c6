"""A sixteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A sixteenth red
team"): the surfaces added last session (generation's confined child, its answer and what it
leaves behind; the guest's `__gm__` globals) and the softmax family's sharedTmpBuffer, each
asserting the honest outcome against a real daemon, the in-process evaluation or `confined.run`.

Safe if containment fails: the kernels are level1/add with one change, run by the session's
sim-guest daemon as its unprivileged user; the foreign program only rebinds a function of the
interpreter it runs in, which on both trees is a child with read-only filesystems; the process left
behind sleeps a minute and ends by itself, and the test kills it by its id.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_gym.dsl import confined, generate
from ascend_gym.dsl.confined import GenerationFailed

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import add_calling, checked
from .test_guest_redteam15 import MULTIPLY_BY_KEPT, assert_wrong_add_judged_wrong

guest = boundary.guest  # the session's sim-guest daemon

PR_SET_NAME = 15  # prctl: the calling thread's command name


# ---- generation's answer: the spec and reference it is judged by --------------------------------
# In generation's child, the reference the lowering puts into the package becomes `x - y`: the
# wrong kernel below then matches "its" reference.
REFERENCE_PATCH = """
import ascend_gym.dsl.generate as _generate

_generate.reference_files = lambda pkg: {
    "reference.py": "import numpy as np\\n\\n\\ndef add(x, y):\\n    return x - y\\n"
}
"""


def test_a_models_program_never_chooses_the_reference_its_kernel_is_judged_by():
    # The fifteenth round moved a model's program into a confined child that answers with the
    # package as data, and the parent judged that package as sent: its spec, op.toml and
    # reference.py were the child's too. A program that rebinds, in the child, the function giving
    # the lowering its reference made its wrong kernel (x - y for add) pass its check against
    # `x - y`: OK, the package kept and written out with that reference. The parent now keeps the
    # child's sources and DSL program only, under the spec and reference it asked for.
    assert_wrong_add_judged_wrong(REFERENCE_PATCH)


# ---- generation's child: what outlives it -------------------------------------------------------
def _comm_pids(name: str) -> list[int]:
    """The processes whose command name is `name`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == name:
                found.append(int(entry.name))
        except OSError:  # ended meanwhile
            pass
    return found


def _leave_a_descendant(name: str) -> None:
    """In generation's child: a grandchild in a session of its own, named `name`, that outlives
    its parent and ends by itself within a minute (the test's bound if containment fails)."""
    if os.fork() == 0:
        os.setsid()
        os.closerange(3, 4096)  # the answer's pipe too: the parent stops waiting for it
        ctypes.CDLL(None).prctl(PR_SET_NAME, name.encode(), 0, 0, 0)
        time.sleep(60)
        os._exit(0)


def test_generations_child_leaves_no_process_behind():
    # Generation's foreign code ran in a child the parent waited for, and killed at the deadline
    # by its process group: a descendant in a session of its own outlived both the answer and the
    # deadline (each such process with a fresh CPU limit of its own, so a chain of them ran past
    # every bound, for good). The child now runs the code as the first process of a PID namespace
    # of its own, killed with its parent: every process it started ends with it.
    name = f"s22red{os.getpid() % 100000}"
    try:
        confined.run(lambda: _leave_a_descendant(name), type(None))
        deadline = time.monotonic() + 5
        while _comm_pids(name) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _comm_pids(name) == []
    finally:
        for pid in _comm_pids(name):
            os.kill(pid, signal.SIGKILL)


# ---- the guest's __gm__ globals: the binary's load --------------------------------------------
def _add_with_gm_table(words: int) -> str:
    """level1/add with a `__gm__` table of `words` distinct odd words, two of which each block
    reads (a block length of 0 if one were 0, which none is): the same work at any size."""
    kernel = suite.resolve("level1/add").files["op_kernel/add.cpp"]
    values = ", ".join(str((i * 2654435761) % 4294967291 | 1) for i in range(words))
    block = "    const uint32_t block = GetBlockIdx();\n"
    assert block in kernel
    return kernel.replace(
        "using namespace AscendC;\n",
        f"using namespace AscendC;\n__gm__ uint32_t kTable[{words}] = {{{values}}};\n",
        1,
    ).replace(block, block + "    if (kTable[block & 1] == 0u) blockLength = 0;\n", 1)


def _timed(kernel: str, run_id: str) -> EvalRequest:
    return EvalRequest(
        run_id=run_id,
        package=suite.resolve("level1/add").with_sources(kernel=kernel),
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        timeouts=Timeouts(build_s=300, run_s=120),
    )


def test_a_kernels_gm_table_is_loaded_with_its_binary_not_charged_as_its_work(guest):
    # Each core's instance of the module was made with the fuel the kernel is charged from, and
    # instantiating burns a unit per byte of data it copies in: the __gm__ image (which the
    # guest's memory holds as the module's data before the host copies it into GM) was charged
    # as scalar work on every core. A 256 KiB table read twice a block cost level1/add +21.9 us
    # (50.98 -> 72.90 us, simulated), the device loading it with the binary before the launch.
    # The count now starts once the instance is made: the same latency as a table of 2 words.
    small = guest.evaluate(_timed(_add_with_gm_table(2), "gm-table-small"))
    large = guest.evaluate(_timed(_add_with_gm_table(65536), "gm-table-large"))
    assert small.status is Status.OK and large.status is Status.OK, (small.message, large.message)
    assert large.latency_us == pytest.approx(small.latency_us, rel=0.005), (
        small.latency_us,
        large.latency_us,
    )


# ---- the softmax family's sharedTmpBuffer past its maximum ---------------------------------------
@pytest.mark.parametrize("api", ["SoftMax", "LogSoftMax"])
def test_a_softmax_buffer_keeps_its_tail_past_the_maximum(guest, api):
    # Round 15 left it open: SoftMax and LogSoftMax took their whole sharedTmpBuffer as written,
    # while their host helper (GetSoftMaxMaxTmpSize, GetLogSoftMaxMaxTmpSize) gives the most a
    # call uses: 576 bytes for a row of 8 floats. An honest kernel that keeps a 1.0 at byte 896
    # of a 1,024-byte buffer and multiplies its sums by it after the call was charged
    # WRONG_ANSWER (every element NaN). The kernel side now takes the helper's own number.
    kernel = add_calling(
        "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n"
        "    SoftMaxTiling st{};\n"
        f"    {api}<float>(norm[0], norm[64], norm[72], norm[128], tmp, st,"
        " SoftMaxShapeInfo{1, 8, 1, 8});\n" + MULTIPLY_BY_KEPT.format(kept=480)
    )
    result = guest.evaluate(checked(kernel, "softmax-tmp-tail"))
    assert result.status is Status.OK, (result.status, result.message)


def test_generations_answer_out_of_shape_is_a_generation_failure():
    # Found reviewing round 16: the child's JSON answer was taken as the shape each caller
    # expected, so foreign code that changed what it returns (a draft that is not a pair) crashed
    # generation with a traceback. Every answer is now validated as its caller's shape.
    with pytest.raises(GenerationFailed, match="out of shape"):
        confined.run(lambda: {"package": {}, "draft": 1}, generate._Generated)
    with pytest.raises(GenerationFailed, match="out of shape"):
        confined.run(lambda: ["category"], tuple[str, str])
    assert confined.run(lambda: ["a", "b"], tuple[str, str]) == ("a", "b")
