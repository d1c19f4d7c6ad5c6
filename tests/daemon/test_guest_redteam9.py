"""A ninth red team of the guest engine (issue 50, docs/trust_boundary.md, "A ninth red team"):
new families, each asserting the honest outcome against a real `sim-guest` daemon. Here: a
package directory's links on the `ascend-gym eval` path, and the host objects the guest's imports
make the engine hold (TPipes and queues), which nothing bounded.

Safe if containment fails: the kernels loop a bounded number of times (at most 2 million imports
in block 0), each run has 60 s, and the outside file is one the test writes itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascend_core.protocol import EvalResult, Status, Timeouts
from ascend_gym.client import DaemonClient
from ascend_gym.commands.common import UsageError, load_operator

from . import test_guest_boundary as boundary
from .conftest import ADD_DIR, small_request
from .test_guest_boundary import kernel_with, timed

guest = boundary.guest  # a sim-guest daemon of this module's own

SECRET = "outside_secret_token"  # a compile error quotes it whole
IMPORT = 'extern "C" __attribute__((import_module("ascendc"), import_name("{name}"))) {decl};\n'


# ---- `ascend-gym eval DIR`: a package directory's links ------------------------------------------
@pytest.mark.parametrize("how", ["absolute link", "relative link"])
def test_a_package_directorys_links_put_no_outside_file_into_the_package(
    guest: DaemonClient, tmp_path: Path, how: str
):
    # `ascend-gym eval DIR` (load_operator, load_package) read every file of the directory through
    # links wherever they led: an agent that writes its package directory links op_kernel/leak.h
    # to a file its user can read, includes it, and the compile quotes the file back in the
    # outcome's message. The eighth round closed this for the corpus runner and cann-bench
    # submissions, not for a package directory. Now a file whose real path leaves the directory
    # is refused before anything is sent.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.h").write_text(f"{SECRET}\n")
    root = tmp_path / "pkg"
    shutil.copytree(ADD_DIR, root, ignore=shutil.ignore_patterns("expert", "__pycache__"))
    kernel = root / "op_kernel" / "add.cpp"
    target = outside / "secret.h" if how == "absolute link" else Path("../../outside/secret.h")
    (root / "op_kernel" / "leak.h").symlink_to(target)
    kernel.write_text(f'#include "leak.h"\n{kernel.read_text()}')
    try:
        pkg = load_operator(str(root))
    except UsageError as e:
        assert "outside the package" in str(e), str(e)
        return
    result = guest.evaluate(small_request(pkg, run_id=f"links-{how}"))
    pytest.fail(f"the outside file went to the daemon: {result.status}: {result.message[:300]}")


# ---- host objects the guest's imports make --------------------------------------------------------
def run(client: DaemonClient, kernel: str, run_id: str) -> EvalResult:
    request = timed(kernel, run_id=run_id)
    return client.evaluate(request.model_copy(update={"timeouts": Timeouts(build_s=120, run_s=60)}))


PIPE_NEW = IMPORT.format(name="pipe_new", decl="int32_t pn(void)")


def test_the_tpipes_a_core_holds_are_bounded_and_a_destroyed_ones_slot_is_used_again(guest):
    # Each pipe_new is a host TPipe outside the guest's 64 MiB, for a few instructions of fuel,
    # and every later tensor check looked at all of them: 2 million in block 0 were OK at 1,028 us
    # (simulated) after 45 to 50 s of the harness's time for the four cases (2.8 to 6.4 s for the
    # honest kernel). Now a core holds at most 64 alive, and a TPipe destroyed frees its slot.
    hoarder = kernel_with(
        PIPE_NEW, "  if (GetBlockIdx() == 0) for (int i = 0; i < 200000; ++i) pn();\n"
    )
    result = run(guest, hoarder, "pipes")
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert "more than 64 TPipe objects alive on one core" in result.message, result.message
    scoped = kernel_with(
        body="  if (GetBlockIdx() == 0) for (int i = 0; i < 20000; ++i) { TPipe p; }\n"
    )
    result = run(guest, scoped, "scoped-pipes")
    assert result.status is Status.OK, (result.status, result.message)


def test_the_queues_a_core_binds_are_bounded(guest):
    # Each pipe_init_que is a host queue: of 0 bytes it allocates no UB, so nothing stopped a loop
    # of them, and the core's registry of queues is torn down in time quadratic in their number:
    # 200,000 in block 0 were OK at 128.0 us (simulated) after 113 s of the harness's time and a
    # peak of 1.5 GB of its memory. Now a core binds at most 16,384.
    binder = kernel_with(
        PIPE_NEW
        + IMPORT.format(
            name="pipe_init_que",
            decl="int32_t pq(int32_t, int32_t, int32_t, int32_t, int32_t, uint32_t, int32_t)",
        ),
        "  if (GetBlockIdx() == 0) {\n"
        "    const int32_t out = static_cast<int32_t>(TPosition::VECOUT), p = pn();\n"
        "    for (int i = 0; i < 20000; ++i) pq(p, out, out, 1, 1, 0, 1);\n"
        "  }\n",
    )
    result = run(guest, binder, "queues")
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert "more than 16384 queues bound on one core" in result.message, result.message


def test_forged_lines_intern_no_site_per_call(guest):
    # The line an import passes names a site the core interns (trace, race reports). A loop of
    # 2 million scalar UB writes, each at a line of its own, took 43 s of the harness's time
    # against 3.8 s at one line (both charged about 12 ms, simulated). Now lines past 65,535 are
    # that line: one site.
    forger = kernel_with(
        body="  if (GetBlockIdx() == 0)\n"
        "    for (int i = 0; i < 2000000; ++i)\n"
        "      ascendc_guest::ub_set(ascendc_guest::Dtype::kI32, 0, 1, 0, i, i + 65536);\n"
    )
    result = run(guest, forger, "lines")
    assert result.status is Status.OK, (result.status, result.message)
    assert "op_kernel:65535" in result.message, result.message
    assert result.cost.worker_s < 25, result.cost
