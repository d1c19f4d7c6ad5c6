"""The ascend-ops-v1 suite: packages load, smoke baselines pass, experts pass and beat their baselines.

The default run checks the smoke operators and one expert per family (correctness on every case
and a faster simulated bench latency); `pytest -m slow` checks every other expert and validates
every baseline of the suite.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core import suite
from ascend_gym import suite_validate as validate

ALL = suite.op_uris()
EXPERTS = suite.expert_uris()
# The default run checks one expert per family (vector element-wise, activation, cube, mixed
# cube/vector, reduction, normalisation, level 3); the slow tier checks them all.
DEFAULT_EXPERTS = {
    f"op://{suite.SUITE_NAME}/{s}"
    for s in (
        "level1/add",
        "level1/gelu",
        "level1/matmul",
        "level2/matmul_bias_relu",
        "level2/reduce_sum_last",
        "level2/softmax",
        "level3/top_k",
        "level3/fused_mlp_epilogue",
    )
}


def _level(uri: str) -> int:
    return int(uri.split("/")[-2].removeprefix("level"))


LEVEL_COUNTS = {level: [_level(u) for u in ALL].count(level) for level in (1, 2, 3)}


# Issue 5's minimums. Level 2 reaches 25 operators on the level2 branch: until both branches are
# merged this test is an expected failure; after the merge the condition is false and it must pass.
@pytest.mark.xfail(
    LEVEL_COUNTS[2] < 25,
    reason="level 2 has < 25 operators until the level2 branch is merged",
    strict=True,
)
def test_suite_meets_issue5_minimums():
    assert LEVEL_COUNTS[1] >= 30 and LEVEL_COUNTS[2] >= 25 and LEVEL_COUNTS[3] >= 5, LEVEL_COUNTS
    assert len(ALL) >= 60, len(ALL)
    assert len(EXPERTS) >= 15, len(EXPERTS)
    assert {_level(u) for u in EXPERTS} == {1, 2, 3}, "experts must be spread over the three levels"


def test_suite_size_and_layout():
    assert LEVEL_COUNTS[1] >= 30 and LEVEL_COUNTS[3] >= 5, LEVEL_COUNTS
    assert len(EXPERTS) >= 5
    for uri in ALL:
        pkg = suite.resolve(uri)
        assert not any(p.startswith("expert/") for p in pkg.files), (
            f"{uri}: baseline includes expert files"
        )
        assert "@tune" in pkg.tiling_source, f"{uri}: tiling has no @tune marker"
        assert pkg.spec.bench_case is not None


@pytest.mark.parametrize("uri", EXPERTS)
def test_expert_overlays_only_existing_files(uri):
    base, expert = suite.resolve(uri), suite.load_expert(uri)
    assert expert is not None and set(expert.files) == set(base.files)
    assert expert.content_hash() != base.content_hash()


def test_load_expert_absent():
    assert suite.load_expert("level1/sub") is None and not suite.has_expert("level1/sub")


@pytest.mark.parametrize("uri", [f"op://{suite.SUITE_NAME}/{s}" for s in suite.SMOKE])
def test_smoke_baselines_pass(uri):
    report = validate.validate_op(uri, experts=False)
    assert report.baseline.ok, validate.describe(report)
    assert report.baseline.latency_us and report.baseline.latency_us > 10


@pytest.mark.parametrize(
    "uri",
    [u if u in DEFAULT_EXPERTS else pytest.param(u, marks=pytest.mark.slow) for u in EXPERTS],
)
def test_expert_passes_and_is_faster(uri):
    report = validate.validate_op(uri, experts=True)
    assert report.baseline.ok and report.expert is not None and report.expert.ok, validate.describe(
        report
    )
    assert report.speedup is not None and report.speedup > 1.0, validate.describe(report)


@pytest.mark.slow
@pytest.mark.parametrize("uri", ALL)
def test_every_baseline_passes(uri):
    report = validate.validate_op(uri, experts=False)
    assert report.baseline.ok, validate.describe(report)


def test_table_rendering(tmp_path):
    out = validate.OpReport(
        uri="op://x/level1/a",
        name="a",
        level=1,
        category="c",
        dtypes=["float16"],
        bench_shape="8",
        bench_dtype="float16",
        soc="Ascend910B4",
        baseline=validate.Outcome(status="OK", latency_us=20.0),
        expert=validate.Outcome(status="OK", latency_us=10.0),
    )
    doc = tmp_path / "suite.md"
    doc.write_text("# title\n\nintro\n")
    validate.write_table(doc, validate.render_table([out]))
    validate.write_table(
        doc, validate.render_table([out])
    )  # idempotent: replaces, never duplicates
    text = doc.read_text()
    assert (
        text.count(validate.TABLE_BEGIN) == 1
        and "| a | 1 |" in text
        and "2.00x" in text
        and "simulated" in text.lower()
    )


def test_top_k_reference_orders_ties_by_index():
    ref = suite.resolve("level3/top_k").reference()
    x = np.array([[1.0, 3.0, 3.0, 2.0, 3.0]], np.float16)
    values, indices = ref(x, k=4)
    assert values.tolist() == [[3.0, 3.0, 3.0, 2.0]] and indices.tolist() == [[1, 2, 4, 3]]
    assert indices.dtype == np.int32


def test_cross_entropy_reference_is_the_mean_over_valid_rows():
    ref = suite.resolve("level3/cross_entropy_loss").reference()
    logits = np.log(np.array([[1.0, 1.0, 2.0], [1.0, 1.0, 2.0], [1.0, 1.0, 2.0]]))
    loss = ref(logits, np.array([2, 0, -1], np.int32), ignore_index=-1)
    assert loss.shape == (1,) and np.allclose(
        loss, [(np.log(2.0) + np.log(4.0)) / 2]
    )  # the ignored row is not counted
    loss = ref(logits, np.array([1, 3, 1], np.int32), ignore_index=1)
    assert np.isnan(loss).all()  # ignore_index or no such class everywhere: 0 / 0, as in PyTorch
