"""A fifth red team of the guest engine (issue 50, docs/trust_boundary.md, "A fifth red team"):
families the first four rounds' tests do not hold, each run against a real `sim-guest` daemon and
asserting what an honest run of the same package gets. Here: the object cache, which served an
artefact built from one package to another whose own files build something else, and the
checker, which passed any output where the reference is infinite.

Safe if containment fails: the packages are level1/add's with a one-line header beside them.
"""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalResult, Status
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient
from npu_daemon.backends.common import build

from . import test_guest_boundary as boundary
from .conftest import client_operator, small_request
from .test_guest_boundary import timed

guest = boundary.guest  # a sim-guest daemon of this module's own

GUARD = '#include "{header}"\n#if BAD\n#error the header says so\n#endif\n'


def with_files(program: str, header: str, files: dict[str, str]) -> OperatorPackage:
    """level1/add with `header` included at the top of its file `program`, and `files` added."""
    pkg = resolve("level1/add")
    changed = {**pkg.files, **files}
    changed[program] = GUARD.format(header=header) + changed[program]
    return pkg.model_copy(update={"files": changed})


def artefacts(kind: str) -> set[str]:
    objects = build.cache_root() / "objects"  # the daemon's, as it inherits ASCEND_GYM_CACHE
    return {p.name for p in objects.glob(f"{kind}-*.so")} if objects.exists() else set()


def evaluate(client: DaemonClient, pkg: OperatorPackage, run_id: str) -> EvalResult:
    return client.evaluate(timed(run_id=run_id).model_copy(update={"package": pkg}))


# ---- the object cache: what an artefact's key does not hold -------------------------------------
def test_a_tilings_header_included_by_a_header_is_part_of_its_cached_artefact(guest):
    # The tiling's key held op_host/ and the op_kernel headers op_host names; a header one of those
    # includes was not in it. A package whose such header makes its tiling fail to compile got the
    # tiling of the package before it: OK, at its latency, for sources that do not build.
    def pkg(bad: int) -> OperatorPackage:
        files = {
            "op_kernel/cfg_a.h": '#include "cfg_b.h"\n',
            "op_kernel/cfg_b.h": f"#define BAD {bad}\n",
        }
        return with_files("op_host/add.cpp", "../op_kernel/cfg_a.h", files)

    first = evaluate(guest, pkg(0), "tiling0")
    assert first.status is Status.OK, (first.status, first.message)
    second = evaluate(guest, pkg(1), "tiling1")
    assert second.status is Status.COMPILE_ERROR and second.charged, (second.status, second.message)
    assert "the header says so" in second.message


def test_a_kernels_header_under_op_host_is_part_of_its_cached_artefact(guest):
    # The kernel's key held every file but op_host/'s (the tiling header aside); the kernel's
    # compile sees them all. The same for its module: OK for a kernel that does not compile.
    def pkg(bad: int) -> OperatorPackage:
        files = {"op_host/kernel_cfg.h": f"#define BAD {bad}\n"}
        return with_files("op_kernel/add.cpp", "../op_host/kernel_cfg.h", files)

    first = evaluate(guest, pkg(0), "kernel0")
    assert first.status is Status.OK, (first.status, first.message)
    second = evaluate(guest, pkg(1), "kernel1")
    assert second.status is Status.COMPILE_ERROR and second.charged, (second.status, second.message)
    assert "the header says so" in second.message


def test_the_acceptance_check_reads_a_header_the_key_did_not_hold(guest):
    # A served artefact skips its build, the acceptance check with it: inline assembly in a header
    # a header includes ran unchecked in the tiling process, built from the package before it.
    def pkg(asm: bool) -> OperatorPackage:
        spin = 'static void spin() { asm volatile("nop"); }\n' if asm else ""
        files = {
            "op_kernel/cfg_a.h": '#include "cfg_b.h"\n',
            "op_kernel/cfg_b.h": "#define BAD 0\n" + spin,
        }
        return with_files("op_host/add.cpp", "../op_kernel/cfg_a.h", files)

    first = evaluate(guest, pkg(False), "checked0")
    assert first.status is Status.OK, (first.status, first.message)
    second = evaluate(guest, pkg(True), "checked1")
    assert second.status is Status.REJECTED and second.charged, (second.status, second.message)
    assert "inline assembly" in second.message


@pytest.mark.alone  # its count holds no other daemon's artefacts
def test_an_include_spelled_by_a_macro_is_part_of_the_artefact_and_the_cache_still_serves(guest):
    # Which files a compile read is the compiler's answer, whatever the spelling; a change to a
    # file no compile read (a comment in the kernel, for the tiling) still finds the tiling built.
    def pkg(bad: int, note: str = "") -> OperatorPackage:
        files = {"op_kernel/spelled.h": f"#define BAD {bad}\n"}
        p = with_files("op_host/add.cpp", "spelled.h", files)
        host = p.files["op_host/add.cpp"].replace(
            '#include "spelled.h"',
            "#define CFG(x) #x\n#define HEADER CFG(../op_kernel/spelled.h)\n#include HEADER",
        )
        kernel = note + p.files["op_kernel/add.cpp"]
        return p.model_copy(
            update={"files": {**p.files, "op_host/add.cpp": host, "op_kernel/add.cpp": kernel}}
        )

    first = evaluate(guest, pkg(0), "macro0")
    assert first.status is Status.OK, (first.status, first.message)
    tilings = artefacts("tiling")
    again = evaluate(guest, pkg(0, "// a note on the kernel\n"), "macro0b")
    assert again.status is Status.OK, (again.status, again.message)
    assert artefacts("tiling") == tilings  # the tiling served from the cache, not built again
    second = evaluate(guest, pkg(1), "macro1")
    assert second.status is Status.COMPILE_ERROR and second.charged, (second.status, second.message)
    assert "the header says so" in second.message


# ---- the checker: a reference that is not finite ------------------------------------------------
# The client's own operator: level1/add whose reference multiplies the sum by infinity (a masked
# score, a log of zero, a quotient by zero: references that hold infinities).
INFINITE = (
    "import numpy as np\n\n\ndef add(x, y):\n    return (x + y) * np.array(np.inf, x.dtype)\n"
)


def test_an_output_left_unwritten_fails_where_the_reference_is_infinite(guest, tmp_path):
    # Where the reference was infinite the allowance (atol + rtol * |ref|) was infinite too, so
    # any output passed there: the NaN an unwritten output holds, the other infinity, zero. A
    # kernel that wrote nothing was OK.
    root = client_operator(tmp_path, "add_inf", INFINITE)
    kernel = root / "op_kernel" / "add.cpp"
    honest = kernel.read_text().replace(
        "Add(zLocal, xLocal, yLocal, (len + alignElems - 1) / alignElems * alignElems);",
        "Add(zLocal, xLocal, yLocal, (len + alignElems - 1) / alignElems * alignElems);\n"
        "    Muls(zLocal, zLocal, (DTYPE_Z)__builtin_inff(), (len + alignElems - 1) / alignElems * alignElems);",
    )
    idle = honest.replace("  op.Process();\n", "", 1)
    for text, want in ((idle, Status.WRONG_ANSWER), (honest, Status.OK)):
        kernel.write_text(text)
        result = guest.evaluate(small_request(load_package(root), run_id="inf"))
        assert result.status is want, (result.status, result.message)
