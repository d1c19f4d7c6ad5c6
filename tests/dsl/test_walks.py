"""Normalisation along a middle axis: a columns() loop walks the axis again for each
accumulator a value reads (softmax over dim 1 of [B, S, C]: the max, the sum of exponentials,
then the stores), generated from a numpy reference and OK on every case through a real daemon."""

from __future__ import annotations

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import EvalRequest, Stage
from ascend_gym.dsl.columns import walks
from ascend_gym.dsl.generate import generate_offline, load_program

SOFTMAX_MID = """\
import numpy as np


def softmax_mid(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
"""


def softmax_mid() -> OperatorPackage:
    cases = [
        {"name": "tail_fp16", "dtype": "float16", "shapes": {"x": [3, 37, 100]}},
        {"name": "fp32", "dtype": "float32", "shapes": {"x": [2, 64, 40]}},
        {"name": "bench", "dtype": "float16", "shapes": {"x": [8, 64, 512]}, "bench": True},
    ]
    spec = OperatorSpec.model_validate(
        {
            "name": "softmax_mid",
            "level": 2,
            "category": "normalization",
            "description": "softmax over axis 1",
            "inputs": [{"name": "x", "dtypes": ["float16", "float32"]}],
            "outputs": [{"name": "y", "dtypes": ["float16", "float32"]}],
            "reference": "reference:softmax_mid",
            "cases": cases,
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": SOFTMAX_MID})


def test_softmax_over_a_middle_axis_walks_it_three_times(client):
    pkg, draft = generate_offline(softmax_mid())
    assert draft.category == "normalization"
    assert "c.max(v0)" in draft.source and "c.sum(" in draft.source
    (lp,) = load_program(draft.source, "<dsl:softmax_mid>").loops
    plan = walks(lp)
    assert plan is not None and [len(w.folds) for w in plan] == [1, 1, 0]
    assert [len(w.stores) for w in plan] == [0, 0, 1]
    kernel = pkg.files["op_kernel/softmax_mid.cpp"]
    assert all(f"Compute{w}(row, n);" in kernel for w in range(3))
    result = client.evaluate(
        EvalRequest(run_id="dsl-walks", package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == 3


def test_a_reduction_along_the_axis_stays_one_walk():
    source = (
        'from ascend_gym.dsl import Kernel\nk = Kernel("sum_mid")\nx = k.input("x")\n'
        'y = k.output("y")\nwith k.columns(axis=1) as c:\n    c.store(y, c.sum(c.load(x).float()))\n'
    )
    (lp,) = load_program(source, "<dsl:sum_mid>").loops
    assert walks(lp) is None


VAR_LSE_MID = """\
import numpy as np


def var_lse_mid(x):
    d = x - x.mean(axis=1, keepdims=True)
    var = (d * d).mean(axis=1, keepdims=True) * (x.shape[1] / (x.shape[1] - 1))
    m = x.max(axis=1, keepdims=True)
    return var, np.log(np.exp(x - m).sum(axis=1, keepdims=True)) + m
"""


def test_work_on_totals_is_done_once_a_column_has_walked_the_axis(client):
    """An unbiased variance (the mean of squared deviations times n / (n - 1)) and a logsumexp
    along axis 1: the totals' arithmetic runs in Finish, on the accumulators' lanes."""
    cases = [
        {
            "name": "fp16",
            "dtype": "float16",
            "shapes": {"x": [3, 20, 100], "var": [3, 1, 100], "lse": [3, 1, 100]},
        },
        {
            "name": "bench",
            "dtype": "float32",
            "shapes": {"x": [2, 20, 72], "var": [2, 1, 72], "lse": [2, 1, 72]},
            "bench": True,
        },
    ]
    spec = OperatorSpec.model_validate(
        {
            "name": "var_lse_mid",
            "level": 2,
            "category": "reduction",
            "description": "var and logsumexp over axis 1",
            "inputs": [{"name": "x", "dtypes": ["float16", "float32"]}],
            "outputs": [
                {"name": "var", "dtypes": ["float16", "float32"]},
                {"name": "lse", "dtypes": ["float16", "float32"]},
            ],
            "reference": "reference:var_lse_mid",
            "cases": cases,
        }
    )
    pkg, draft = generate_offline(OperatorPackage(spec=spec, files={"reference.py": VAR_LSE_MID}))
    assert draft.category == "reduction"
    (lp,) = load_program(draft.source, "<dsl:var_lse_mid>").loops
    plan = walks(lp)
    assert plan is not None and [len(w.stores) for w in plan] == [0, 0]  # both in Finish
    kernel = pkg.files["op_kernel/var_lse_mid.cpp"]
    finish = kernel[kernel.index("void Finish(") :]
    assert "Ln(" in finish and "Muls(" in finish and "Add(" in finish
    result = client.evaluate(
        EvalRequest(run_id="dsl-finish", package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == 2
