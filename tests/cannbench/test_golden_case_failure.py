"""A case the task's golden cannot answer fails alone in `cann-bench run`'s scoring: the golden
is the task's, not the candidate's, so its failure on one case (here an error it raises on the
fp32 case's CPU tensors, where the import's probe read only shapes) leaves the operator's other
cases counted."""

from __future__ import annotations

import pytest

from ascend_core import suite
from ascend_gym.cannbench import run as bench
from ascend_gym.cannbench.importer import import_tasks

from .conftest import SCALED_ADD_CASES, SCALED_ADD_PROTO, write_task

# The fp32 case's golden answers its output's shape on meta tensors (the import's probe) and
# raises on the values the evaluation gives it, as a golden mixing dtypes in `scatter_` does.
GOLDEN = """\
import torch


def scaled_add(x1: torch.Tensor, x2: torch.Tensor, alpha: float = 1.0) -> torch.Tensor:
    if x1.dtype == torch.float32 and x1.device.type == "cpu":
        raise RuntimeError("PROBE no fp32 values")
    return x1 + alpha * x2
"""


def test_a_case_whose_golden_fails_fails_alone(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    root = tmp_path / "set"
    write_task(
        root / "level1" / "scaled_add", SCALED_ADD_PROTO, GOLDEN, SCALED_ADD_CASES, "cases.yaml"
    )
    manifest = import_tasks(root, "cb-golden-fails")
    (task,) = manifest.tasks
    pkg = suite.resolve("op://cb-golden-fails/level1/scaled_add")
    made, how = bench.generate(pkg, "Ascend910B2")
    assert made is not None, how

    result = bench.score(made, task, {}, "Ascend910B2")

    assert result.built and not result.correct
    assert [(c.case_id, c.status) for c in result.cases] == [("1", "OK"), ("2", "REJECTED")]
    assert "RuntimeError: PROBE no fp32 values" in result.message, result.message
