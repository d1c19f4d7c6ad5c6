"""A sixth red team of the guest engine (issue 50, docs/trust_boundary.md, "A sixth red team"):
families the first five rounds' tests do not hold, each run against a real `sim-guest` daemon and
asserting what an honest run of the same package gets. Here: what a build takes from the package
besides the files its compilers read (the spec, the repository-root links, the tiling view's
headers), which the object cache's key did not hold, and packages that name no file to build,
a daemon fault (uncharged) after the tiling had compiled for free.

Safe if containment fails: the packages are level1/add's with a line or a spec field changed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascend_core.package import OperatorPackage, Tolerance, load_package
from ascend_core.protocol import EvalResult, Status
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient

from . import test_guest_boundary as boundary
from .conftest import client_operator, small_request

guest = boundary.guest  # a sim-guest daemon of this module's own

SUM = "import numpy as np\n\n\ndef add(x, y):\n    return x + y\n"


def changed(pkg: OperatorPackage, files: dict[str, str], **spec: object) -> OperatorPackage:
    pkg = pkg.model_copy(update={"files": {**pkg.files, **files}})
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update=spec)})


def evaluate(client: DaemonClient, pkg: OperatorPackage, run_id: str) -> EvalResult:
    return client.evaluate(small_request(pkg, run_id=run_id))


def honest_then_refused(client: DaemonClient, first: OperatorPackage, second: OperatorPackage):
    """`first` is OK; `second`, one cache key with it on main, is its own COMPILE_ERROR."""
    one = evaluate(client, first, "first")
    assert one.status is Status.OK, (one.status, one.message)
    two = evaluate(client, second, "second")
    assert two.status is Status.COMPILE_ERROR and two.charged, (two.status, two.message)
    return two


@pytest.fixture()
def own_op(tmp_path: Path) -> OperatorPackage:
    """level1/add as the client's own operator, whose spec is the client's to write."""
    return load_package(client_operator(tmp_path, "add_own", SUM))


# ---- the object cache: what a build takes besides the files its compilers read -----------------
def probe(spelled: str, tag: str) -> str:
    return f'// {tag}\n#if __has_include("{spelled}")\n#error the rooted spelling is seen\n#endif\n'


@pytest.mark.parametrize("program", ["op_host/add.cpp", "op_kernel/add.cpp"])
def test_a_repository_root_spelling_in_a_file_no_compile_reads_is_part_of_the_key(guest, program):
    # A rooted include (`x/op_host/add.cpp`) anywhere in the package makes the build link the
    # package under `.repo/x` and pass -I.repo (ops-math's spelling), whichever file names it: a
    # comment in the kernel for the tiling, in op_host for the kernel. The file naming it is not
    # read by that compile, so its key did not change: the probe's package got the artefact
    # built without the link, OK, where its own build does not compile.
    pkg = resolve("level1/add")
    other = "op_kernel/add.cpp" if program.startswith("op_host") else "op_host/add.cpp"
    spelled = f"x/{program}"
    first = changed(pkg, {program: probe(spelled, program) + pkg.files[program]})
    comment = f'\n// #include "{spelled}"\n'
    second = changed(first, {other: first.files[other] + comment})
    refused = honest_then_refused(guest, first, second)
    assert "the rooted spelling is seen" in refused.message


def test_a_header_the_tiling_view_follows_but_no_compile_reads_is_part_of_the_key(guest):
    # The kernel's tiling view follows the tiling header's includes by their text, `#if 0` ones
    # too, and exports each TilingData they name; the compile skips the header, so only the
    # tiling header's own text keyed the module. A struct named there that nothing declares:
    # OK with the module of the package before it.
    pkg = resolve("level1/add")
    header = pkg.files["op_host/add_tiling.h"].replace(
        "#include", '#if 0\n#include "skipped.h"\n#endif\n#include', 1
    )
    first = changed(pkg, {"op_host/add_tiling.h": header, "op_host/skipped.h": "// view\n"})
    second = changed(first, {"op_host/skipped.h": "BEGIN_TILING_DATA_DEF(Undeclared)\n"})
    refused = honest_then_refused(guest, first, second)
    assert "Undeclared" in refused.message


def test_the_spec_the_build_reads_is_part_of_the_key(guest, own_op):
    # The repository build's definitions (spec.host_defines) wrap the kernel's tiling view too,
    # and spec.kernel_file names the file compiled: neither keyed the kernel's module, so a
    # package differing only in its spec got the module of the one before it.
    guard = (
        "#if defined(BAD) && defined(ASCENDC_SIM_KERNEL)\n#error the definition says so\n#endif\n"
    )
    header = {"op_host/add_tiling.h": guard + own_op.files["op_host/add_tiling.h"]}
    first = changed(own_op, header)
    refused = honest_then_refused(guest, first, changed(first, {}, host_defines=["BAD=1"]))
    assert "the definition says so" in refused.message

    kernels = {"op_kernel/alt.cpp": "#error the other kernel file\n"}
    first = changed(own_op, kernels, kernel_file="op_kernel/add.cpp")
    refused = honest_then_refused(guest, first, changed(first, {}, kernel_file="op_kernel/alt.cpp"))
    assert "the other kernel file" in refused.message


# ---- a package that names no file to build ---------------------------------------------------
def test_a_package_naming_no_file_to_build_is_refused_and_charged(guest, own_op):
    # Two kernel files and no kernel_file, a kernel_file or tiling header it lacks: the build
    # failed on the path (ValueError, KeyError), a daemon fault, uncharged and never cached, after
    # the tiling had compiled: compile work for free, at will.
    kernel = own_op.files["op_kernel/add.cpp"]
    for spec_or_files in (
        {"files": {"op_kernel/b.cpp": kernel}},
        {"kernel_file": "op_kernel/none.cpp"},
        {"tiling_header": "op_host/none.h"},
    ):
        files = spec_or_files.pop("files", {})
        result = evaluate(guest, changed(own_op, files, **spec_or_files), "unbuildable")
        assert result.status is Status.REJECTED and result.charged, (result.status, result.message)
        assert "op_kernel/" in result.message or "op_host/" in result.message


def test_a_kernel_file_named_like_a_header_compiles_as_cpp(guest, own_op):
    # clang made a `.h` input a precompiled header, which the IR pass read as text: a daemon
    # fault (UnicodeDecodeError), uncharged, after the kernel's compile.
    files = {**own_op.files, "op_kernel/add.h": own_op.files["op_kernel/add.cpp"]}
    del files["op_kernel/add.cpp"]
    pkg = changed(own_op.model_copy(update={"files": files}), {}, kernel_file="op_kernel/add.h")
    result = evaluate(guest, pkg, "header")
    assert result.status is Status.OK, (result.status, result.message)


# ---- the build's own outputs ------------------------------------------------------------------
def test_a_package_file_named_like_a_builds_output_is_not_taken_for_it(guest, own_op):
    # The package's top-level files are linked into each build directory (so `../x.h` resolves
    # from op_kernel/ as in the tree). One named like an output (`kernel.cwasm`, the module's
    # machine code) stayed the output: the precompile could not write through the link (the
    # package is read-only in the view) and did not say so, and the candidate's bytes went into
    # the object cache as the machine code wasmtime loads, trusting it (RUNTIME_ERROR, `failed
    # to parse precompiled artifact`: wasmtime read them).
    files = {"kernel.cwasm": "not a module\n", "linked.so": "not a library\n"}
    result = evaluate(guest, changed(own_op, files), "outputs")
    assert result.status is Status.OK, (result.status, result.message)


def test_a_package_file_in_a_builds_own_directory_is_refused_and_charged(guest, own_op):
    # The tiling builds in `.build-tiling/` beside the package's files; a package holding
    # `.build-tiling/op_host/x.h` made that directory the candidate's, and linking op_host into it
    # failed (FileExistsError): a daemon fault, uncharged, while the kernels compiled beside it.
    result = evaluate(guest, changed(own_op, {".build-tiling/op_host/x.h": "//\n"}), "builddir")
    assert result.status is Status.REJECTED and result.charged, (result.status, result.message)
    assert ".build-tiling/op_host/x.h" in result.message


@pytest.mark.parametrize(
    "path",
    ["op_kernel/" + "a" * 300 + ".h", "/".join(["d"] * 2100) + "/f.h", "op_kernel/a\0b.h"],
    ids=["name past NAME_MAX", "path past PATH_MAX", "NUL"],
)
def test_a_package_path_the_filesystem_cannot_hold_is_refused_and_charged(guest, own_op, path):
    # Writing the package failed (OSError, ValueError): an uncharged daemon fault, the long name's
    # after the builds had run.
    result = evaluate(guest, changed(own_op, {path: "//\n"}), "unwritable")
    assert result.status is Status.REJECTED and result.charged, (result.status, result.message)


def test_a_package_of_thousands_of_files_is_refused_and_charged(guest, own_op):
    # Each file costs the worker a write, links and lookups in every build: 20,000 empty files
    # took 8 to 10 s of a worker against 1.7 s, and a request's 256 MiB holds 10^7 of them
    # (hours, and gigabytes of the tmpfs's inodes, which its byte quota does not count).
    files = {f"op_kernel/many/f{i}.h": "" for i in range(5000)}
    result = evaluate(guest, changed(own_op, files), "many")
    assert result.status is Status.REJECTED and result.charged, (result.status, result.message)
    assert "past the 4096" in result.message


def test_a_file_the_last_build_read_and_this_package_lacks_is_a_miss(guest, own_op):
    # The last build under a key lists the package files it read; a later package with the same
    # key lacking one of them was keyed with None, which the digest cannot encode (TypeError): an
    # uncharged daemon fault for every such package, which never built, so the list stayed.
    # A top-level file is not in the kernel's key, and the kernel's compile finds it (-I.).
    probe = '#if __has_include("probe.h")\n#include "probe.h"\n#endif\n'
    kernel = {"op_kernel/add.cpp": probe + own_op.files["op_kernel/add.cpp"]}
    first = evaluate(guest, changed(own_op, {**kernel, "probe.h": "// read\n"}), "lister")
    assert first.status is Status.OK, (first.status, first.message)
    second = evaluate(guest, changed(own_op, kernel), "lacking")
    assert second.status is Status.OK, (second.status, second.message)


# ---- the checker: 64-bit integer outputs ---------------------------------------------------------
def test_64_bit_integer_outputs_are_compared_exactly():
    # The checker's arithmetic is float64, which holds 53 bits: past 2**53 an int64 output off by
    # up to half its float spacing met the reference exactly (2**60 + 100 against 2**60: an error
    # of 0 at atol 0, a pass). The daemon's own function, as the worker calls it.
    from npu_daemon import checker

    exact = Tolerance(atol=0, rtol=0)
    want = np.array([2**60, 2**62, -(2**61), 7], np.int64)
    got = want + np.array([1, 100, -3, 0], np.int64)
    check = checker.compare("y", got, want, "int64", exact)
    assert not check.passed and check.outlier_fraction == 0.75, check
    assert checker.compare("y", want.copy(), want, "int64", exact).passed
    wide = np.array([2**63 + 2], np.uint64)
    assert not checker.compare("u", wide, wide - 2, "uint64", Tolerance(atol=1, rtol=0)).passed
