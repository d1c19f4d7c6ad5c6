"""The real project layouts of tests/corpus (hicann ops-math's rooted includes and template key,
ops-nn's repository `common/inc/op_kernel` headers as inc/, a sibling operator's kernel headers
carried under tree/, a custom-op project's `common/include` and an ops-* repository's root and
per-SoC `common/inc` found through the build's include directories, a repository naming its root
by a variable of its own with the operator's tiling struct in op_kernel/), sent to a real daemon:
accepted as they are, and refused when a shared header of the repository, not the operator's
own file, does what the check forbids; the answer names that header by its path in the tree."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient
from ascend_gym.corpus import build_package, find_ops

HERE = Path(__file__).parent

# Inline assembly pasted together: the token gate's (a call is the link gate's, test_link_gate.py).
PASTED = '\n#define GATE_P(a, b) a##b\ninline void GateProbe() { GATE_P(__as, m__)("nop"); }\n'


def _package(tree: Path, spec: dict, op: str, reference: Path) -> OperatorPackage:
    source = next(s for s in find_ops(tree) if s.op == op)
    pkg = build_package(source, OperatorSpec.model_validate(spec))
    return pkg.model_copy(update={"files": {**pkg.files, "reference.py": reference.read_text()}})


def layouts() -> dict[str, OperatorPackage]:
    def toml(path: Path) -> dict:
        return tomllib.loads(path.read_text())

    math, nn = HERE / "ops_math", HERE / "ops_nn"
    specs = toml(HERE / "layout_specs.toml")
    return {
        "project": _package(
            HERE / "project", specs["offset_scale"], "offset_scale", HERE / "tree_reference.py"
        ),
        "ops_repo": _package(
            HERE / "ops_repo", specs["offset_rows"], "offset_rows", HERE / "tree_reference.py"
        ),
        "own_root": _package(
            HERE / "own_root", specs["offset_blend"], "offset_blend", HERE / "tree_reference.py"
        ),
        "ops_math": _package(
            math, toml(math / "scale_tpl.toml"), "scale_tpl", math / "reference.py"
        ),
        "ops_nn": _package(nn, toml(nn / "affine_rows.toml"), "affine_rows", nn / "reference.py"),
        "tree": _package(
            HERE / "tree",
            toml(HERE / "tree_specs.toml")["offset_scale"],
            "offset_scale",
            HERE / "tree_reference.py",
        ),
    }


# The repository-level header each layout carries (not a file of the operator's own directory).
SHARED = {
    "ops_math": "op_kernel/scale_tpl_tiling_data.h",
    "ops_nn": "inc/row_math.h",
    "tree": "tree/norm/scale_rows/op_kernel/scale_math.h",
    # found through the repository build's include directories (spec.include_dirs)
    "project": "tree/common/include/offset_math.h",
    "ops_repo": "tree/math/scale_rows/op_kernel/scale_math.h",
    "own_root": "tree/kernels/shared_kernels/blend_math.h",
}


# `client`: the session's daemon (tests/conftest.py).
@pytest.fixture()
def native_client(native_daemon: str) -> Iterator[DaemonClient]:
    """Native engine: its token gate refuses a forbidden call where it is spelled (on the guest
    engine the same call is clang's COMPILE_ERROR: tests/daemon/test_guest_boundary.py)."""
    c = DaemonClient(native_daemon)
    yield c
    c.close()


def _request(pkg: OperatorPackage) -> EvalRequest:
    return EvalRequest(run_id="layouts", package=pkg, stages=[Stage.COMPILE, Stage.CHECK])


@pytest.mark.parametrize("layout", sorted(SHARED))
def test_a_real_layout_is_accepted_and_passes(client, layout):
    result = client.evaluate(_request(layouts()[layout]))
    assert result.status is Status.OK, result.message


@pytest.mark.parametrize("layout", sorted(SHARED))
def test_a_forbidden_call_in_a_shared_header_is_refused_there(native_client, layout):
    client = native_client
    pkg = layouts()[layout]
    path = SHARED[layout]
    assert path in pkg.files
    pkg = pkg.model_copy(update={"files": {**pkg.files, path: pkg.files[path] + PASTED}})
    result = client.evaluate(_request(pkg))
    assert result.status is Status.REJECTED, result.message
    shown = path.removeprefix("tree/")  # a tree/ file is named by its path in the tree
    assert result.message.startswith(f"{shown}:"), result.message
    assert "`__asm__` is not allowed" in result.message
