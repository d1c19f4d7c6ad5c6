"""A case the task's golden cannot answer fails alone in `cann-bench run`'s scoring: the golden
is the task's, not the candidate's, so its failure on one case (here its `get_input` answering
another shape than the case's) leaves the operator's other cases counted."""

from __future__ import annotations

import pytest

from ascend_core import suite
from ascend_gym.cannbench import run as bench
from ascend_gym.cannbench.importer import import_tasks

from .conftest import SCALED_ADD_CASES, SCALED_ADD_PROTO, write_task

# cann-bench's get_input replaces the drawn inputs; this one halves x1 of the fp32 case, a shape
# the daemon cannot hand the candidate (as a golden packing int4 values into int32 words does).
GOLDEN = """\
import torch


def get_input(x1, x2, alpha=1.0, **kwargs):
    if x1.dtype == torch.float32:
        x1 = x1[: x1.shape[0] // 2]
    return [x1, x2]


def scaled_add(x1: torch.Tensor, x2: torch.Tensor, alpha: float = 1.0) -> torch.Tensor:
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
    assert "get_input gave x1 shape [2048], not [4096]" in result.message
