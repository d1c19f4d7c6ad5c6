"""A case's `points`: values set at flat indices over the drawn or explicit ones, so an extreme sits
where a kernel's split of the work could lose it (the last core's share), not where a uniform
draw happens to put it."""

import numpy as np
import pytest
from conftest import PACKAGES
from pydantic import ValidationError

from ascend_core.package import Case, OperatorSpec, load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon import checker

SPEC = {
    "name": "pts",
    "inputs": [{"name": "x", "dtypes": ["float32"]}, {"name": "w", "dtypes": ["float32"]}],
    "outputs": [{"name": "y", "dtypes": ["float32"]}],
    "reference": "reference:pts",
}


def spec(case_fields: dict, dtype: str = "float32") -> OperatorSpec:
    case = {"name": "c0", "dtype": dtype, "shapes": {"x": [5, 7], "w": [5, 7]}, "bench": True}
    inputs = [{**a, "dtypes": [dtype]} for a in SPEC["inputs"]]
    outputs = [{**a, "dtypes": [dtype]} for a in SPEC["outputs"]]
    return OperatorSpec.model_validate(
        {**SPEC, "inputs": inputs, "outputs": outputs, "cases": [case | case_fields]}
    )


def inputs(s: OperatorSpec, seed: int = 3) -> dict[str, np.ndarray]:
    pkg = load_package(PACKAGES / "max_syncall").model_copy(update={"spec": s})
    return checker.make_inputs(pkg, s.cases[0], seed)


def test_points_set_their_elements_and_leave_the_draw_alone(monkeypatch):
    drawn = inputs(spec({}))
    got = inputs(spec({"points": {"x": [[-1, 2.5], [3, "-inf"]]}}))
    flat = got["x"].ravel()
    assert flat[-1] == 2.5 and flat[3] == -np.inf
    rest = np.ones(35, bool)
    rest[[3, 34]] = False
    assert np.array_equal(flat[rest], drawn["x"].ravel()[rest])
    assert np.array_equal(got["w"], drawn["w"])  # the stream of the next input is unchanged
    monkeypatch.setattr(checker, "CHUNK", 4)  # the points fall in the second and the last chunk
    again = inputs(spec({"points": {"x": [[-1, 2.5], [3, "-inf"]]}}))
    assert np.array_equal(again["x"], got["x"])


def test_points_go_over_explicit_values_and_every_dtype():
    got = inputs(spec({"values": {"x": [1.0, 2.0]}, "points": {"x": [[0, 7.0]]}}))
    assert got["x"].ravel()[:4].tolist() == [7.0, 2.0, 1.0, 2.0]
    for dtype, stored in (("bfloat16", 0x4040), ("int32", 3), ("complex64", 3 + 0j)):
        x = inputs(spec({"points": {"x": [[-2, 3.0]]}}, dtype))["x"].ravel()
        assert x[-2] == stored and x[-1] != stored


@pytest.mark.parametrize(
    ("case_fields", "message"),
    [
        ({"points": {"z": [[0, 1.0]]}}, "names unknown inputs ['z']"),
        ({"points": {"x": [[35, 1.0]]}}, "sets points of x outside its 35 elements"),
        ({"points": {"x": [[-36, 1.0]]}}, "sets points of x outside its 35 elements"),
        ({"points": {"x": [[0, 1.0]]}, "broadcast": {"x": [0]}}, "points of x, which is broadcast"),
    ],
)
def test_a_bad_point_is_a_clear_spec_error(case_fields, message):
    with pytest.raises(ValidationError) as e:
        spec(case_fields)
    assert message in str(e.value)


def test_a_split_that_drops_the_last_cores_share_fails_a_peak_there(client):
    """max_syncall reduces each core's share and core 0 combines them. A tiling that launches one
    core fewer than its split has work for leaves the last share out (128 of 4,096 elements on
    40 vector cores): a uniform draw puts the maximum there once in 32, a peak at the last
    element always."""
    base = load_package(PACKAGES / "max_syncall")
    peak = Case(name="peak_last", dtype="float32", shapes={"x": [4096], "y": [1]})
    peak = peak.model_copy(update={"points": {"x": [(-1, 2.0)]}})
    spec_ = base.spec.model_copy(update={"cases": [*base.spec.cases, peak]})
    base = base.model_copy(update={"spec": spec_})
    host = next(f for f in base.files if f.startswith("op_host/") and f.endswith(".cpp"))
    short = base.files[host].replace("SetBlockDim(blockDim)", "SetBlockDim(blockDim - 1)")
    assert short != base.files[host]
    short_pkg = base.model_copy(update={"files": {**base.files, host: short}})

    def check(pkg, run_id):
        stages = [Stage.COMPILE, Stage.CHECK]
        request = EvalRequest(run_id=run_id, package=pkg, stages=stages, cases=["peak_last"])
        return client.evaluate(request)

    ok = check(base, "points-base")
    assert ok.status is Status.OK, ok.message
    wrong = check(short_pkg, "points-short")
    assert wrong.status is Status.WRONG_ANSWER, wrong.message
    assert [c.passed for c in wrong.cases] == [False]
