"""A task whose cases trace to different programs (a `reduction` that differs by case): each
program lowered on its cases and joined under tiling keys, the host choosing by the attribute;
programs no attribute tells apart are refused with the reason."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Stage
from ascend_gym.cannbench import run as bench
from ascend_gym.cannbench.importer import import_tasks
from ascend_gym.client import DaemonClient

from .conftest import write_task

DEV = Path(__file__).parent / "data" / "gen_dev"

SHAPED_PROTO = (
    "operator: {name: ShapeBranch, difficulty: L1, inputs: [{name: x, dtype: [float32]}], "
    "outputs: [{name: y, dtype: [float32]}]}\n"
)
# a golden that computes something else on wide rows: its programs differ by shape alone
SHAPED_GOLDEN = """\
import torch


def shape_branch(x):
    return x * 2 if x.shape[-1] > 64 else x + 1
"""
SHAPED_CASES = """\
cases:
- {operator: ShapeBranch, case_id: 1, input_shape: [[4, 128]], dtype: [float32], attrs: {}}
- {operator: ShapeBranch, case_id: 2, input_shape: [[4, 32]], dtype: [float32], attrs: {}}
"""


def _imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rel: str) -> Path:
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    shutil.copytree(DEV / rel, tmp_path / "set" / rel)
    return tmp_path / "set"


def test_a_reduction_that_differs_by_case_is_one_operator_of_three_keys(
    tmp_path, monkeypatch, client: DaemonClient
):
    import_tasks(_imported(tmp_path, monkeypatch, "level2/l1_loss_modes"), "cb-modes")
    task = suite.resolve("op://cb-modes/level2/l1_loss_modes")
    made, how = bench.generate(task, "Ascend910B2")
    assert made is not None, how
    assert how == "offline total+elementwise by tiling key template"
    host = made.files["op_host/l1_loss_modes.cpp"]
    for key, mode in enumerate(("mean", "sum", "none"), 1):
        assert f'std::strcmp(reductionAttr, "{mode}") == 0)) return v{key}::TilingFunc' in host
        assert f"TILING_KEY_IS({key})" in made.files["op_kernel/l1_loss_modes.cpp"]
    # case 4 leaves reduction out: the spec's default, 'mean', picks key 1 on the host
    assert 'if (reductionAttr == nullptr) reductionAttr = "mean";' in host
    result = client.evaluate(
        EvalRequest(
            run_id="variants", package=made, stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME]
        )
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == 4


def test_programs_that_differ_by_shape_alone_are_refused_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    root = tmp_path / "set"
    write_task(
        root / "level1" / "shape_branch", SHAPED_PROTO, SHAPED_GOLDEN, SHAPED_CASES, "cases.yaml"
    )
    import_tasks(root, "cb-shaped")
    made, how = bench.generate(suite.resolve("op://cb-shaped/level1/shape_branch"), "Ascend910B2")
    assert made is None
    assert how.endswith(
        "the cases give 2 different programs, and no attribute tells them apart "
        "(their shapes or dtypes do)"
    )
