"""ops-nn's shared kernel headers, on a tree of our own (tests/corpus/ops_nn): the repository's
common/inc/op_kernel/ enters the package as inc/, beside op_kernel/, where ops-nn's build copies it
(tbe/ascendc/inc beside tbe/ascendc/<op>), so "../inc/<name>" resolves as on the device build."""

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
