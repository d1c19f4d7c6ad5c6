"""The repository build's include roots (spec.include_dirs): the runner reads them from the CMake
of tests/corpus/project (a custom-op project's `include_directories(common/include)`) and
tests/corpus/ops_repo (an ops-* repository's helpers naming its root and per-SoC `common/inc`),
carries only the headers the sources include through them, and every build passes them as -I in
the repository's order. test_layouts_through_the_daemon.py runs both operators through a daemon."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.corpus import build_package, find_ops
from npu_daemon.backends.cann import project
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import kernel_build

HERE = Path(__file__).parent
SPECS = tomllib.loads((HERE / "layout_specs.toml").read_text())


def _package(tree: str, op: str) -> OperatorPackage:
    source = next(s for s in find_ops(HERE / tree) if s.op == op)
    return build_package(source, OperatorSpec.model_validate(SPECS[op]))


def test_a_project_brings_the_included_common_headers_and_their_root():
    pkg = _package("project", "offset_scale")
    assert pkg.spec.include_dirs == ["common/include"]
    assert pkg.spec.tree_path == "vector/offset_scale"
    shared = sorted(p for p in pkg.files if p.startswith("tree/"))
    # "offset_math.h" and "common/row_split.h" through the root; unused.h is included by none,
    # kernel_operator.h is the toolkit's (its directories come first), offset_api.h is included
    # by the aclnn layer alone (op_host/op_api/, not built for a kernel launch).
    assert shared == ["tree/common/include/common/row_split.h", "tree/common/include/offset_math.h"]


def test_an_ops_repository_brings_a_sibling_kernel_header_and_the_a2_variant():
    pkg = _package("ops_repo", "offset_rows")
    assert pkg.spec.include_dirs == [".", "common/inc", "common/inc/arch22"]
    assert "tree/math/scale_rows/op_kernel/scale_math.h" in pkg.files
    assert "tree/common/inc/arch22/soc_block.h" in pkg.files
    assert not any("arch35" in p for p in pkg.files)  # another SoC's variant stays out


@pytest.mark.parametrize("bad", [["../common"], ["/usr/include"], ["a/../../b"], [""], ["a", "a"]])
def test_an_include_root_must_be_a_path_inside_the_package(bad):
    with pytest.raises(ValidationError, match="include root"):
        OperatorSpec.model_validate({**SPECS["offset_scale"], "include_dirs": bad})


def test_include_roots_leave_the_identity_of_a_package_without_them():
    pkg = _package("project", "offset_scale")
    spec = pkg.spec.model_copy(update={"include_dirs": []})
    bare = pkg.model_copy(update={"spec": spec})
    explicit = OperatorSpec.model_validate({**spec.model_dump(), "include_dirs": []})
    assert bare.content_hash() == pkg.model_copy(update={"spec": explicit}).content_hash()
    assert bare.content_hash() != pkg.content_hash()


def test_both_sim_units_pass_the_roots_in_the_repository_order(tmp_path):
    pkg = _package("ops_repo", "offset_rows")
    root = pkg.write_tree(tmp_path)
    rt = build.Runtime(tmp_path / "runtime", "0" * 24)  # (flags only: nothing is compiled)
    top = tmp_path.resolve()
    roots = [f"-I{top}", f"-I{top / 'common/inc'}", f"-I{top / 'common/inc/arch22'}"]
    macros = {"DTYPE_X": "float", "DTYPE_Y": "float"}
    for unit in (
        build.tiling_unit(pkg, root, rt),
        kernel_build.kernel_unit(pkg, macros, root, rt, 60.0),
    ):
        flags = [f for f in unit.flags if f in roots]
        assert flags == roots, unit.flags
        assert all((Path(f[2:]) / "").is_relative_to(unit.top.resolve()) for f in roots)


def test_the_cann_project_names_the_roots(tmp_path):
    pkg = _package("project", "offset_scale")
    project.write_project(pkg, {"DTYPE_X": "float", "DTYPE_Y": "float"}, 0, tmp_path)
    cmake = (tmp_path / "CMakeLists.txt").read_text()
    assert "${CMAKE_CURRENT_SOURCE_DIR}/tree/common/include)" in cmake
    assert (tmp_path / "tree/common/include/offset_math.h").is_file()
