"""An eleventh red team of the guest engine (issue 50, docs/trust_boundary.md, "An eleventh red
team"): the items the tenth round left open, and new families, each asserting the honest outcome
against a real daemon.

Safe if containment fails: the kernels loop a bounded number of times and each run has at most
60 s.
"""

from __future__ import annotations

import time

import pytest

from ascend_core.protocol import EvalRequest, Status
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import backend

from . import test_guest_boundary as boundary
from .conftest import small_request
from .test_guest_redteam10 import padded_add, scalar_us

guest = boundary.guest  # a sim-guest daemon of this module's own


# ---- GET_TILING_DATA_PTR_WITH_STRUCT: the same charge on both engines ----------------------------
def padded_add_by_pointer(words: int) -> EvalRequest:
    """The tenth round's padded level1/add (`padded_add`), its entry reading the tiling through
    GET_TILING_DATA_PTR_WITH_STRUCT: the same work otherwise, one timed case."""
    request = padded_add(words)
    kernel = request.package.files["op_kernel/add.cpp"].replace(
        "GET_TILING_DATA(tilingData, tiling);",
        "GET_TILING_DATA_PTR_WITH_STRUCT(AddTilingData, tilingPtr, tiling);\n"
        "  const AddTilingData& tilingData = *tilingPtr;",
        1,
    )
    return request.model_copy(
        update={
            "run_id": f"tiling-ptr-{words}",
            "package": request.package.with_sources(kernel=kernel),
        }
    )


@pytest.mark.parametrize("engine", ["sim-guest", "sim"])
def test_the_tiling_struct_by_pointer_is_charged_per_word_on_both_engines(
    guest, native_client, engine
):
    # The native engine's GET_TILING_DATA_PTR_WITH_STRUCT was a pointer into the tiling buffer:
    # the struct's reads were the kernel's own loads, not the device's scalar loads from GM, while
    # the guest engine copied it, charged per word (the tenth round's open item). Both now copy it
    # through TilingCopy / tiling_read, charged by Core::ScalarGmWordsCost.
    client = guest if engine == "sim-guest" else native_client
    small, large = (scalar_us(client.evaluate(padded_add_by_pointer(w))) for w in (1, 4096))
    # 4,095 words more: 256 lines, each a miss (200 cycles) and 15 hits (9 cycles), per block.
    assert large - small > 20.0, (small, large)


# ---- the guest IR pass: work in the daemon's worker, outside every timeout ------------------------
def cast_table(doublings: int) -> str:
    """A table of 2^doublings - 1 `__gm__` pointers to one of the kernel's globals, from a few
    lines of macros: clang writes its initializer as one IR line of as many constant
    `addrspacecast`s."""
    lines = ["static float g_cell;", "#define D0 (__gm__ float*)&g_cell"]
    lines += [f"#define D{k} D{k - 1}, D{k - 1}" for k in range(1, doublings)]
    table = ", ".join(f"D{k}" for k in reversed(range(doublings)))
    return "\n".join([*lines, f"__gm__ float* const kTable[] = {{{table}}};", ""])


def test_a_table_of_cast_pointers_does_not_hold_the_worker_in_the_ir_pass(guest):
    # The IR pass (guest_ir.rewrite) runs in the daemon's worker, under no timeout: its constant
    # casts were rewritten by a search from the line's start and a copy of the line per cast,
    # 37 s of the worker for 10,000 casts on one line and 188 s for 20,000. This kernel's 32,767
    # held it past the request's deadline for a 1 KiB source. Now one pass over the line.
    kernel = boundary.kernel_with(
        prelude=cast_table(15),
        body="  if (kTable[tilingData.totalLength % 7] == nullptr) return;\n",
    )
    client = DaemonClient(guest.address, timeout_s=30.0, heartbeat_s=1.0)
    try:
        started = time.monotonic()
        result = client.evaluate(
            small_request(resolve("level1/add").with_sources(kernel=kernel), "ir-casts")
        )
    finally:
        client.close()
    assert result.status is Status.OK, (result.status, result.message)
    assert time.monotonic() - started < 60.0


# ---- the memory share's assumptions: the compiles of one worker ----------------------------------
def test_a_workers_compiles_fit_in_the_share_its_memory_bound_assumes():
    # The share (M - 2048) / (2 x W) assumes two sandboxed processes a worker at once; its compiles
    # ran on one thread a core, each compile's processes at up to 4 GiB: a 64-core worker of a
    # 5,514 MiB share could hold 64 x 4 GiB compiling one candidate's kernel variants.
    for bound, cores in ((5514, 2), (5514, 64), (1024, 64), (40000, 64), (200000, 16)):
        slots = backend.compile_slots(bound, cores)
        assert 1 <= slots <= cores
        assert slots * min(build.COMPILE_MB, bound) <= 2 * bound, (bound, cores, slots)
    assert backend.compile_slots(5514, 2) == 2  # this machine: as before
    assert backend.compile_slots(5514, 64) == 2
    assert backend.compile_slots(None, 64) == 64  # no bound (a sanitized build): one a core
