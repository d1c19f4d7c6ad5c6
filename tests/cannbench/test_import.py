"""`suite import --format cann-bench`: tasks of cann-bench's layout read into specs, their
outputs' shapes and dtypes asked of the golden in the sandbox, the metadata kept for the score."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ascend_core import suite
from ascend_gym.cannbench import tasks
from ascend_gym.cannbench.importer import import_tasks, load_manifest

from .conftest import write_task


def test_a_set_imports_with_its_cases_attributes_and_metadata(bench_set):
    manifest = import_tasks(bench_set, "cb-test")
    assert [t.name for t in manifest.tasks] == ["scaled_add", "row_sum"]
    assert list(manifest.failed) == ["level3/fp4_only"]
    assert "float4_e2m1" in manifest.failed["level3/fp4_only"]

    add = suite.resolve("op://cb-test/level1/scaled_add").spec
    assert add.reference == "golden:scaled_add" and add.reference_kind == "torch"
    assert add.level == 1 and add.op_type == "ScaledAdd" and add.category == "elementwise"
    first, second = add.cases
    assert first.shapes == {"x1": [64, 300], "x2": [64, 300], "y": [64, 300]}
    assert first.dtypes == {"x1": "float16", "x2": "float16", "y": "float16"}
    assert second.ranges == {"x1": (-2.0, 2.0), "x2": (-2.0, 2.0)}  # one range for both inputs
    assert second.attrs == {"alpha": 0.5} and add.attrs[0].default == 1.0
    assert add.bench_case is first  # the largest case
    assert add.tolerance_for("float16").rtol == 10 * 2.0**-10  # cann-bench's MARE bound

    rows = suite.resolve("op://cb-test/level2/row_sum").spec
    assert rows.tolerance_for("int8").atol == 1.0  # its proto's precision_thresholds
    assert [a.name for a in rows.inputs] == ["x", "bias", "extras_0", "extras_1"]
    assert [a.dynamic for a in rows.inputs] == ["", "", "extras", "extras"]
    assert [(a.name, a.type) for a in rows.attrs] == [("dim", "int"), ("scales", "list_int")]
    with_bias, no_bias = rows.cases
    assert with_bias.shapes["y"] == [8] and with_bias.dtypes["y"] == "float32"  # from the golden
    assert with_bias.ranges["extras_1"] == (0.0, 1.0)  # per list member
    assert no_bias.absent == ["bias"] and no_bias.shapes["y"] == [5]
    assert no_bias.dtypes["y"] == "bfloat16" and no_bias.attrs == {"dim": 1, "scales": [3, 1]}

    row_task = load_manifest("cb-test").task("row_sum")
    assert row_task.case_ids == {"case_1": "1", "case_2": "2"}
    assert "float4_e2m1" in row_task.skipped["3"]
    floors = manifest.metadata["910b2"]
    assert floors["scaled_add"]["2"].baseline_perf_us == 5.0  # under its level
    assert floors["row_sum"]["1"].t_hw_us is None  # at the top, no floor


def test_a_golden_that_does_not_run_is_a_failed_import(bench_set, capsys):
    """Its traceback's last line is the reason (the sandboxed child writes it to the real
    stderr, which pytest's capture replaces: suspended here)."""
    write_task(
        bench_set / "level1" / "broken",
        "operator:\n  name: Broken\n  inputs:\n  - name: x\n    dtype: [float32]\n"
        "  outputs:\n  - name: y\n    dtype: [float32]\n  schema: broken(Tensor x) -> Tensor y\n",
        "def broken(x):\n    raise RuntimeError('PROBE broken golden')\n",
        "cases:\n- case_id: 1\n  input_shape: [[4]]\n  dtype: [float32]\n  attrs: {}\n",
        "cases.yaml",
    )
    with capsys.disabled():
        manifest = import_tasks(bench_set, "cb-broken")
    assert "PROBE broken golden" in manifest.failed["level1/broken"]
    assert [t.name for t in manifest.tasks] == ["scaled_add", "row_sum"]


def test_a_case_the_golden_raises_on_is_left_out_and_the_others_import(bench_set, capsys):
    """A golden that fails on some cases (here its fp16 ones, as a golden mixing dtypes in
    `scatter_` does) leaves those out, each with its error, and the task imports with the rest."""
    write_task(
        bench_set / "level1" / "half_fails",
        "operator:\n  name: HalfFails\n  inputs:\n  - name: x\n    dtype: [float16, float32]\n"
        "  outputs:\n  - name: y\n    dtype: [float16, float32]\n"
        "  schema: half_fails(Tensor x) -> Tensor y\n",
        "import torch\n\n\ndef half_fails(x):\n    if x.dtype == torch.float16:\n"
        "        raise RuntimeError('PROBE no fp16')\n    return x * 2\n",
        "cases:\n- case_id: 1\n  input_shape: [[64]]\n  dtype: [float16]\n  attrs: {}\n"
        "- case_id: 2\n  input_shape: [[8]]\n  dtype: [float32]\n  attrs: {}\n",
        "cases.yaml",
    )
    with capsys.disabled():
        import_tasks(bench_set, "cb-half")
    task = load_manifest("cb-half").task("half_fails")
    assert task.case_ids == {"case_2": "2"}
    assert task.skipped == {"1": "its golden fails: RuntimeError: PROBE no fp16"}
    spec = suite.resolve("op://cb-half/level1/half_fails").spec
    assert [c.name for c in spec.cases] == ["case_2"] and spec.bench_case.name == "case_2"


def test_cases_csv_and_yaml_agree(bench_set):
    """The same case read from a cases.yaml and from its cases.csv row."""
    task = bench_set / "level1" / "scaled_add"
    from_yaml = tasks.load_cases(task)
    (task / "cases.yaml").unlink()
    (task / "cases.csv").write_text(
        "operator,case_id,input_shape,dtype,attrs,value_range,note\n"
        "ScaledAdd,1,\"[[64, 300], [64, 300]]\",\"['float16', 'float16']\",\"{'alpha': 1.0}\","
        '"[[-1, 1], [-1, 1]]",x\n'
    )
    (from_csv,) = tasks.load_cases(task)
    for key in ("input_shape", "dtype", "attrs", "value_range"):
        assert from_csv[key] == from_yaml[0][key]


def test_the_command_imports_and_a_wrong_directory_is_a_usage_error(bench_set, tmp_path):
    cli = [sys.executable, "-m", "ascend_gym.cli", "suite", "import", "--format", "cann-bench"]
    done = subprocess.run(
        [*cli, str(bench_set), "--name", "cb-cli"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "suite cb-cli: 2 of 3 tasks imported" in done.stdout
    missing = subprocess.run(
        [*cli, str(tmp_path / "nope"), "--name", "x"], capture_output=True, text=True
    )
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("text", "level"), [("a/level3/op", 3), ("a/b/op", 2)])
def test_the_level_is_the_directorys_else_the_difficulty(tmp_path, text, level):
    assert tasks.level_of(tmp_path / text, {"difficulty": "L2"}) == level


def test_an_output_declared_in_another_dtype_than_the_inputs_imports(bench_set, capsys):
    """A float32 gradient of float16 inputs: before the golden speaks, the output is drafted in
    its declared dtype (the inputs' would be refused), then the golden says what it returns."""
    write_task(
        bench_set / "level2" / "sum_fp32",
        "operator:\n  name: SumFp32\n  inputs:\n  - name: x\n    dtype: [float16]\n"
        "  outputs:\n  - name: y\n    dtype: [float32]\n",
        "import torch\n\n\ndef sum_fp32(x: torch.Tensor):\n    return x.float().sum(-1)\n",
        "cases:\n- case_id: 1\n  input_shape: [[4, 8]]\n  dtype: [float16]\n  attrs: {}\n",
        "cases.yaml",
    )
    with capsys.disabled():
        manifest = import_tasks(bench_set, "cb-fp32-out")
    assert "level2/sum_fp32" not in manifest.failed
    spec = suite.resolve("op://cb-fp32-out/level2/sum_fp32").spec
    assert spec.cases[0].dtypes == {"x": "float16", "y": "float32"} and spec.cases[0].shapes[
        "y"
    ] == [4]
