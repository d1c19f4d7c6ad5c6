"""Operators that include files of another operator's directory by a relative path, on a tree of
our own (tests/corpus/tree): experimental/norm/offset_scale includes the tiling split and the
kernel class of norm/scale_rows (`../../../../norm/scale_rows/op_kernel/scale_base.h`), which
includes its sibling scale_math.h."""

import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from ascend_core.package import OperatorSpec, load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.corpus import build_package, find_ops
from ascend_gym.corpus.importer import toml_value

TREE = Path(__file__).parent / "tree"
SPECS = tomllib.loads((Path(__file__).parent / "tree_specs.toml").read_text())
REFERENCE = (Path(__file__).parent / "tree_reference.py").read_text()


def packages():
    found = {}
    for source in find_ops(TREE):
        pkg = build_package(source, OperatorSpec.model_validate(SPECS[source.op]))
        pkg.files["reference.py"] = REFERENCE
        found[source.op] = pkg
    return found


def test_the_included_files_enter_the_package_at_their_tree_paths():
    pkgs = packages()
    assert sorted(pkgs) == ["offset_scale", "scale_rows"]
    offset = pkgs["offset_scale"]
    assert offset.spec.tree_path == "experimental/norm/offset_scale"
    assert sorted(p for p in offset.files if p.startswith("tree/")) == [
        "tree/norm/scale_rows/op_host/scale_rows_split.h",
        "tree/norm/scale_rows/op_kernel/scale_base.h",
        "tree/norm/scale_rows/op_kernel/scale_math.h",  # reached from scale_base.h
    ]
    own = pkgs["scale_rows"]  # its includes stay inside its directory
    assert own.spec.tree_path == ""
    assert not any(p.startswith("tree/") for p in own.files)


def test_the_package_builds_where_the_relative_paths_resolve(tmp_path):
    from npu_daemon.backends.sim import SimBackend

    for name, pkg in packages().items():
        request = EvalRequest(
            run_id="t", package=pkg, soc="Ascend910B4", stages=[Stage.COMPILE, Stage.CHECK]
        )
        result = SimBackend().evaluate(request, tmp_path / name)
        assert result.status == Status.OK, f"{name}: {result.message}\n{result.log_tail}"
        assert [c.passed for c in result.cases] == [True, True]
    # Written as the tree: the operator at its path, the included files around it.
    assert (
        tmp_path / "offset_scale/experimental/norm/offset_scale/op_kernel/offset_scale.cpp"
    ).is_file()
    assert (tmp_path / "offset_scale/norm/scale_rows/op_kernel/scale_base.h").is_file()


def test_a_package_with_tree_files_is_self_contained(tmp_path):
    pkg = packages()["offset_scale"]
    pkg.write_to(tmp_path / "pkg")  # export: tree/ files inside the package directory
    assert (tmp_path / "pkg/tree/norm/scale_rows/op_kernel/scale_base.h").is_file()
    changed = pkg.model_copy(
        update={"files": {**pkg.files, "tree/norm/scale_rows/op_kernel/scale_math.h": "// x"}}
    )
    assert changed.content_hash() != pkg.content_hash()


def test_tree_path_cannot_leave_the_build_directory():
    data = packages()["offset_scale"].spec.model_dump()
    for bad in ("../x", "/tmp/x", "a/../../x"):
        with pytest.raises(ValidationError, match="relative path going down"):
            OperatorSpec.model_validate({**data, "tree_path": bad})


def test_an_imported_package_keeps_its_tree_files(tmp_path):
    # As `suite import` writes it: the files, then op.toml from the spec.
    pkg = packages()["offset_scale"]
    pkg.write_to(tmp_path)
    spec = pkg.spec.model_dump(mode="json")
    (tmp_path / "op.toml").write_text("".join(f"{k} = {toml_value(v)}\n" for k, v in spec.items()))
    again = load_package(tmp_path)
    assert again.spec.tree_path == pkg.spec.tree_path
    assert again.content_hash() == pkg.content_hash()


def test_a_compile_error_in_a_tree_file_is_the_compilers_message_on_the_guest(tmp_path):
    """A tree file is part of the package: a kernel error inside it comes back as clang's own
    message, not as a file outside the package (the guest build checked against the operator's
    directory alone and hid the error)."""
    from npu_daemon.backends.sim import GuestSimBackend

    pkg = packages()["offset_scale"]
    header = "tree/norm/scale_rows/op_kernel/scale_math.h"
    pkg.files[header] += '\nstatic_assert(sizeof(int) == 0, "tree file error");\n'
    request = EvalRequest(run_id="t", package=pkg, soc="Ascend910B4", stages=[Stage.COMPILE])
    result = GuestSimBackend().evaluate(request, tmp_path)
    assert result.status == Status.COMPILE_ERROR
    assert "tree file error" in result.message, result.message
