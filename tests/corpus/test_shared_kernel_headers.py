"""ops-nn's shared kernel headers, on a tree of our own (tests/corpus/ops_nn): the repository's
common/inc/op_kernel/ enters the package as inc/, beside op_kernel/, where ops-nn's build copies it
(tbe/ascendc/inc beside tbe/ascendc/<op>), so "../inc/<name>" resolves as on the device build;
another operator's kernel headers ("../<op>/<name>", tbe/ascendc/<op>) enter it as <op>/."""

import shutil
import tomllib
from pathlib import Path

from ascend_core.package import OperatorSpec
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.corpus import build_package, find_ops

OPS_NN = Path(__file__).parent / "ops_nn"
SPEC = OperatorSpec.model_validate(tomllib.loads((OPS_NN / "affine_rows.toml").read_text()))


def package(tree: Path = OPS_NN):
    (source,) = find_ops(tree)
    pkg = build_package(source, SPEC)
    pkg.files["reference.py"] = (OPS_NN / "reference.py").read_text()
    return pkg


def evaluate(pkg, workdir: Path):
    from npu_daemon.backends.sim import SimBackend

    request = EvalRequest(
        run_id="t", package=pkg, soc="Ascend910B4", stages=[Stage.COMPILE, Stage.CHECK]
    )
    return SimBackend().evaluate(request, workdir)


def test_the_included_shared_headers_enter_the_package_beside_op_kernel():
    pkg = package()
    shared = OPS_NN / "common/inc/op_kernel"
    # row_ops.h from the kernel file, row_math.h from arch22/ and from row_ops.h; unused.h not.
    assert sorted(p for p in pkg.files if p.startswith("inc/")) == [
        "inc/row_math.h",
        "inc/row_ops.h",
    ]
    assert pkg.files["inc/row_ops.h"] == (shared / "row_ops.h").read_text()
    assert pkg.spec.tree_path == ""  # they are not another operator's files


def test_the_kernel_builds_and_runs_against_them(tmp_path):
    result = evaluate(package(), tmp_path)
    assert result.status == Status.OK, f"{result.message}\n{result.log_tail}"
    assert [c.passed for c in result.cases] == [True, True]
    assert (tmp_path / "inc/row_math.h").is_file()


def test_a_shared_header_change_rebuilds_the_kernel(tmp_path):
    pkg = package()
    pkg.files["inc/row_math.h"] = pkg.files["inc/row_math.h"].replace(
        "AscendC::Adds(t, t, shift, n);", "AscendC::Adds(t, t, shift + 1.0f, n);"
    )
    result = evaluate(pkg, tmp_path)
    assert result.status == Status.WRONG_ANSWER  # the same key would have reused the old kernel
    assert not result.cases[0].passed


def test_a_repository_without_the_directory_brings_none(tmp_path):
    # The ops-math layout: no common/inc/op_kernel, and its build copies none.
    shutil.copytree(OPS_NN / "experimental", tmp_path / "experimental")
    pkg = package(tmp_path)
    assert not any(p.startswith("inc/") for p in pkg.files)
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.COMPILE_ERROR
    assert "../inc/row_ops.h" in result.message


def _with_sibling_kernel(tree: Path, sibling: Path) -> None:
    """The kernel of `tree`'s operator takes its shift from a header of another operator's
    kernel directory, `sibling` (which has no op_host/: not an operator itself), as ops-nn
    add_rms_norm takes "../rms_norm/rms_norm_base.h"; that header includes its neighbour."""
    shutil.copytree(OPS_NN, tree)
    (sibling / "op_kernel").mkdir(parents=True)
    (sibling / "op_kernel/shift_rule.h").write_text(
        '#pragma once\n#include "shift_unit.h"\n'
        "__aicore__ inline float RuledShift(float shift) { return shift * kShiftUnit; }\n"
    )
    (sibling / "op_kernel/shift_unit.h").write_text(
        "#pragma once\nconstexpr float kShiftUnit = 1.0f;\n"
    )
    kernel = tree / "experimental/math/affine_rows/op_kernel/affine_rows.cpp"
    text = kernel.read_text().replace(
        '#include "../inc/row_ops.h"',
        f'#include "../inc/row_ops.h"\n#include "../{sibling.name}/shift_rule.h"',
    )
    kernel.write_text(text.replace("tilingData.shift)", "RuledShift(tilingData.shift))"))


def test_another_operator_s_kernel_headers_enter_the_package_beside_op_kernel(tmp_path):
    tree = tmp_path / "tree"
    _with_sibling_kernel(tree, tree / "experimental/math/row_shift")
    pkg = package(tree)
    assert sorted(p for p in pkg.files if p.startswith("row_shift/")) == [
        "row_shift/shift_rule.h",
        "row_shift/shift_unit.h",
    ]
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.OK, f"{result.message}\n{result.log_tail}"
    # In another category's directory (ops-nn's <category>/<op>) it is found as well.
    far = tmp_path / "far"
    _with_sibling_kernel(far, far / "experimental/other/row_shift")
    assert "row_shift/shift_unit.h" in package(far).files


def test_a_sibling_header_found_nowhere_stays_a_compile_error(tmp_path):
    tree = tmp_path / "tree"
    _with_sibling_kernel(tree, tree / "experimental/math/row_shift")
    (tree / "experimental/math/row_shift/op_kernel/shift_rule.h").unlink()
    pkg = package(tree)
    assert not any(p.startswith("row_shift/") for p in pkg.files)
    result = evaluate(pkg, tmp_path / "run")
    assert result.status == Status.COMPILE_ERROR
    assert "../row_shift/shift_rule.h" in result.message
