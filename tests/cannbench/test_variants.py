"""A task whose cases trace to different programs (a `reduction` that differs by case, an
optional input given in some cases, a scale of one element in some): each program lowered on its
cases and joined under tiling keys, the host choosing by what tells them apart; programs that
nothing the host reads tells apart are refused with the reason."""

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


@pytest.mark.parametrize(
    ("rel", "keys", "picks"),
    [
        (  # reduction 'mean', 'sum' or 'none'; case 4 leaves it out: the default, 'mean'
            "level2/l1_loss_modes",
            3,
            [
                'if (reductionAttr == nullptr) reductionAttr = "mean";',
                'if ((std::strcmp(reductionAttr, "mean") == 0)) return v1::TilingFunc',
                'if ((std::strcmp(reductionAttr, "sum") == 0)) return v2::TilingFunc',
                'if ((std::strcmp(reductionAttr, "none") == 0)) return v3::TilingFunc',
            ],
        ),
        (  # an optional offset given or not, a scale of one element (a scalar) or of C
            "level2/dequant_optional_offset",
            4,
            [
                "const bool offsetPresent = context->GetInputShape(2) != nullptr;",
                "if ((offsetPresent == true && scaleSingle == false)) return v1::TilingFunc",
                "if ((offsetPresent == false && scaleSingle == true)) return v4::TilingFunc",
            ],
        ),
    ],
)
def test_cases_of_several_programs_are_one_operator_keyed_by_the_host(
    rel, keys, picks, tmp_path, monkeypatch, client: DaemonClient
):
    import_tasks(_imported(tmp_path, monkeypatch, rel), "cb-keyed")
    op = rel.split("/")[1]
    made, how = bench.generate(suite.resolve(f"op://cb-keyed/{rel}"), "Ascend910B2")
    assert made is not None and how.endswith("by tiling key template"), how
    host = made.files[f"op_host/{op}.cpp"]
    assert all(p in host for p in picks), host
    for key in range(1, keys + 1):
        assert f"TILING_KEY_IS({key})" in made.files[f"op_kernel/{op}.cpp"]
    result = client.evaluate(
        EvalRequest(run_id="keyed", package=made, stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME])
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == len(made.spec.cases)


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
        "the cases give 2 different programs, and no attribute, optional input or one-element "
        "input tells them apart (their shapes or dtypes do)"
    )


def test_the_keyed_operator_runs_alike_on_both_engines(
    tmp_path, monkeypatch, client: DaemonClient, native_daemon: str
):
    """The native engine (`--backend sim`) binds each key's TilingData as the guest does."""
    import_tasks(_imported(tmp_path, monkeypatch, "level2/log_softmax_dim"), "cb-engines")
    made, how = bench.generate(
        suite.resolve("op://cb-engines/level2/log_softmax_dim"), "Ascend910B2"
    )
    assert made is not None, how
    stages = [Stage.COMPILE, Stage.CHECK, Stage.TIME]
    guest = client.evaluate(EvalRequest(run_id="engines", package=made, stages=stages))
    native = DaemonClient(native_daemon)
    try:
        own = native.evaluate(EvalRequest(run_id="engines", package=made, stages=stages))
    finally:
        native.close()
    assert guest.status.value == own.status.value == "OK", (guest.message, own.message)
    assert own.latency_us == pytest.approx(guest.latency_us, rel=0.1)
