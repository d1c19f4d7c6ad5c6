"""cann-bench's score by its published formula (benchmark_spec.md 4.2, Eq. 3-5)."""

from __future__ import annotations

import pytest

from ascend_gym.cannbench.hap import CaseScore, OperatorScore, case_score
from ascend_gym.cannbench.run import level_rows


def test_the_case_score_anchors():
    assert case_score(10.0, 10.0, 2.0) == 0.5  # at the baseline
    assert case_score(2.0, 10.0, 2.0) == 1.0  # at the hardware floor
    assert case_score(1e9, 10.0, 2.0) < 1e-6  # far slower
    assert case_score(6.0, 10.0, 2.0) == pytest.approx(8 / 12)
    assert case_score(5.0, None, 2.0) is None and case_score(5.0, 2.0, 2.0) is None
    assert case_score(1.0, 10.0, 2.0) == pytest.approx(8 / 7)  # below the floor: above 1
    assert case_score(0.5, 3.0, 2.0) is None  # so far below that the denominator vanishes


def _case(status: str, latency: float | None, hap: float | None = None) -> CaseScore:
    return CaseScore(
        case="c",
        case_id="1",
        status=status,
        latency_us=latency,
        baseline_us=10.0,
        t_hw_us=2.0,
        hap=hap,
    )


def test_the_operator_score_by_hand():
    """N = 4: two cases pass (score_i 0.5 and 1.0), one is a wrong answer, one a runtime fault.
    100 [0.2 * 3/4 + (0.3 + 0.5 * 0.5)/4 + (0.3 + 0.5 * 1.0)/4] = 15 + 13.75 + 20 = 48.75."""
    cases = [
        _case("OK", 10.0, 0.5),
        _case("OK", 2.0, 1.0),
        _case("WRONG_ANSWER", None),
        _case("RUNTIME_ERROR", None),
    ]
    op = OperatorScore(op="x", level=1, built=True, cases=cases, n_cases=4)
    assert op.score == pytest.approx(48.75)
    assert op.mean_hap == pytest.approx(1.5 / 4) and not op.correct
    assert OperatorScore(op="x", level=1, built=False, n_cases=4).score == 0.0
    # a case the importer left out counts as a fault: three evaluated of four
    partial = OperatorScore(op="x", level=1, built=True, cases=cases[:2], n_cases=3)
    assert partial.score == pytest.approx(100 * (0.2 * 2 / 3 + (0.55 + 0.8) / 3))


def test_a_passing_case_below_the_floor_is_flagged():
    fast = _case("OK", 1.0, case_score(1.0, 10.0, 2.0))
    assert fast.below_floor and not _case("OK", 3.0, 0.9).below_floor
    assert not _case("WRONG_ANSWER", 1.0).below_floor


def test_level_rows_count_compile_correct_and_speedup():
    good = OperatorScore(op="a", level=1, built=True, cases=[_case("OK", 5.0, 0.6)], n_cases=1)
    bad = OperatorScore(op="b", level=1, built=False, n_cases=2)
    other = OperatorScore(
        op="c", level=2, built=True, cases=[_case("WRONG_ANSWER", None)], n_cases=1
    )
    rows = {r.level: r for r in level_rows([good, bad, other])}
    assert rows["level1"].compile_rate == 0.5 and rows["level1"].correct_rate == 0.5
    assert rows["level1"].gm_speedup == pytest.approx((10.0 / 5.0) ** 0.5)  # failed ops count 1.0
    assert rows["level1"].fast_p["1.2"] == 0.5
    assert rows["all"].ops == 3 and rows["level2"].correct_rate == 0.0
    assert rows["level1"].score == pytest.approx(good.score + 0.0)
