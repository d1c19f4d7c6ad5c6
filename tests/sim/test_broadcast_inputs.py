"""The `broadcast` input generator: a case's input constant along given axes (what an aclnn
layer's BroadcastTo hands a kernel), drawn for its shape with those axes 1 and repeated."""

import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import PACKAGES
from pydantic import ValidationError

from ascend_core.package import OperatorSpec, load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon import checker

SPEC = {
    "name": "bcast",
    "inputs": [
        {"name": "a", "dtypes": ["float32"]},
        {"name": "b", "dtypes": ["float32"]},
        {"name": "c", "dtypes": ["float32"]},
    ],
    "outputs": [{"name": "y", "dtypes": ["float32"]}],
    "reference": "reference:bcast",
}
CASE = {"name": "c0", "dtype": "float32", "shapes": {"a": [3, 5, 7], "b": [3, 5, 7], "c": [6, 4]}}


def spec(case_fields: dict, **spec_fields) -> OperatorSpec:
    case = {**CASE, "bench": True, **case_fields}
    return OperatorSpec.model_validate({**SPEC, **spec_fields, "cases": [case]})


def inputs(s: OperatorSpec, seed: int = 3) -> dict[str, np.ndarray]:
    pkg = load_package(PACKAGES / "add_queue").model_copy(update={"spec": s})
    return checker.make_inputs(pkg, s.cases[0], seed)


def test_an_input_is_constant_along_its_axes_only():
    got = inputs(spec({"broadcast": {"a": [1], "c": [0, 1]}}))
    a, b, c = got["a"], got["b"], got["c"]
    assert a.shape == (3, 5, 7) and c.shape == (6, 4)
    assert np.array_equal(a, np.broadcast_to(a[:, :1, :], a.shape))  # constant along axis 1
    assert len(np.unique(a[:, 0, :])) == 21  # drawn along the others
    assert len(np.unique(c)) == 1  # every axis: one value
    assert len(np.unique(b)) == b.size  # not broadcast: drawn whole
    assert ((a >= -1) & (a <= 1)).all()


def test_the_values_depend_on_the_seed_alone_not_on_the_chunk(monkeypatch):
    s = spec({"broadcast": {"a": [0, 2]}, "ranges": {"a": [5.0, 6.0]}})
    first = inputs(s)
    assert np.array_equal(first["a"], inputs(s)["a"])
    assert not np.array_equal(first["a"], inputs(s, seed=4)["a"])
    assert ((first["a"] >= 5) & (first["a"] <= 6)).all()  # the case's range applies
    monkeypatch.setattr(checker, "CHUNK", 11)  # chunks that cut rows
    again = inputs(s)
    assert all(np.array_equal(first[k], again[k]) for k in first)


def test_every_dtype_broadcasts():
    for dtype, kind in (("bfloat16", np.uint16), ("int32", np.int32), ("complex64", np.complex64)):
        dtypes = {"a": [dtype], "b": ["float32"], "c": ["float32"]}
        inputs_ = [{**arg, "dtypes": dtypes[arg["name"]]} for arg in SPEC["inputs"]]
        got = inputs(spec({"broadcast": {"a": [2]}, "dtypes": {"a": dtype}}, inputs=inputs_))["a"]
        assert got.dtype == kind
        assert np.array_equal(got, np.broadcast_to(got[:, :, :1], got.shape))


@pytest.mark.parametrize(
    ("case_fields", "message"),
    [
        ({"broadcast": {"z": [0]}}, "names unknown inputs ['z']"),
        ({"broadcast": {"a": [3]}}, "broadcasts a along axes [3], but its shape has 3 axes"),
        ({"broadcast": {"a": [-1]}}, "must be distinct non-negative axes, got [-1]"),
        ({"broadcast": {"a": [1, 1]}}, "must be distinct non-negative axes, got [1, 1]"),
        ({"broadcast": {"a": []}}, "must be distinct non-negative axes, got []"),
        (
            {"broadcast": {"a": [0]}, "values": {"a": [1.0]}},
            "broadcasts a, which is given explicit",
        ),
        ({"broadcast": {"a": [0]}, "absent": ["a"]}, "broadcasts a, which is absent"),
    ],
)
def test_a_bad_broadcast_is_a_clear_spec_error(case_fields, message):
    with pytest.raises(ValidationError) as e:
        spec(case_fields)
    assert message in str(e.value)


def test_a_broadcast_case_runs_on_the_simulator():
    # add_queue adds two same-shape tensors: a row broadcast along axis 0 plus a column
    # broadcast along axis 1 is an outer sum; the harness reads the generated files.
    pkg = load_package(PACKAGES / "add_queue")
    case = pkg.spec.cases[1].model_copy(update={"broadcast": {"x": [0], "y": [1]}, "bench": True})
    pkg = pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": [case]})})
    data = checker.make_inputs(pkg, case, 0)
    assert np.array_equal(data["x"], np.broadcast_to(data["x"][:1], data["x"].shape))
    from npu_daemon.backends.sim import SimBackend

    request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    with tempfile.TemporaryDirectory() as d:
        result = SimBackend().evaluate(request, Path(d))
    assert result.status == Status.OK, result.message
    assert [c.passed for c in result.cases] == [True]


def test_the_corpus_runner_renames_broadcast_inputs_with_the_others():
    from ascend_gym.corpus import rename_args

    opdef = 'this->Input("grad"); this->Input("x1"); this->Input("x2"); this->Output("out");'
    renamed = rename_args(spec({"broadcast": {"a": [1], "c": [0]}}), opdef)
    assert renamed.cases[0].broadcast == {"grad": [1], "x2": [0]}
