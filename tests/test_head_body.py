"""Reports that separate the launch head from the kernel body (metrics.head_body, the report's
"Head and body" section, tasks.csv), and fast_1.0 counting only improvements above the noise floor."""

from __future__ import annotations

import json

import pytest

from ascend_gym import metrics, report
from ascend_gym.records import SweepConfig, SweepRecord

OPS = ["op://s/level1/a", "op://s/level1/b", "op://s/level1/c", "op://s/level1/d"]


def task(op: str, baseline: tuple[float, float | None], best: tuple[float, float | None]) -> dict:
    """A finished task of policy "p": (latency, head) of its baseline and of its best."""
    return {
        "policy": "p", "operator": op, "seed": 0, "budget": 4, "ok": True, "simulated": True,
        "backend": "sim", "soc": "Ascend910B4", "evaluations": 4,
        "baseline_us": baseline[0], "baseline_head_us": baseline[1],
        "best_us": best[0], "best_head_us": best[1],
    }  # fmt: skip


TASKS = [
    task(OPS[0], (10.0, 3.0), (8.5, 1.5)),  # fewer cores: the head alone, the body unchanged
    task(OPS[1], (100.0, 3.0), (50.0, 3.0)),  # the body twice as fast
    task(OPS[2], (10.0, 1.5), (9.9, 1.5)),  # 0.1 us: within the noise floor
    task(OPS[3], (20.0, None), (10.0, None)),  # a backend that reports no head
]


def test_body_speedup_takes_the_head_out_and_the_noise_floor_holds_small_wins_back():
    first, second, small, unknown = (SweepRecord.model_validate(t) for t in TASKS)
    assert metrics.record_speedup(first) == pytest.approx(10 / 8.5)
    assert metrics.body_speedup(first) == pytest.approx(1.0)
    assert metrics.body_speedup(second) == pytest.approx(97 / 47)
    assert metrics.body_speedup(unknown) is None
    assert metrics.floored_speedup(second) == 2.0 and metrics.floored_speedup(small) == 1.0
    assert metrics.above_noise(100.0, 97.9) and not metrics.above_noise(100.0, 98.5)  # 2 %
    assert metrics.above_noise(10.0, 9.4) and not metrics.above_noise(10.0, 9.6)  # 0.5 us
    (row,) = metrics.head_body([first, second, small, unknown], ["p"])
    assert (row.ops, row.known) == (4, 3)
    assert row.gm == pytest.approx((10 / 8.5 * 2.0 * 10 / 9.9) ** (1 / 3))
    assert row.gm_body == pytest.approx((1.0 * 97 / 47 * 8.5 / 8.4) ** (1 / 3))
    assert row.fast == 1.0 and row.fast_floored == 0.75  # the 0.1 us win does not count


def test_the_report_shows_head_and_body_and_tasks_csv_has_their_columns(tmp_path):
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(t) + "\n" for t in TASKS))
    config = SweepConfig(ops=OPS, policies=["p"], budget=4, seeds=1)
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    md = report.write_report(tmp_path).read_text()
    assert "## Head and body" in md and "faster by more than 2% and 0.5 us" in md
    assert "| p | 4 | 3 | 1.335 | 1.278 | 1.00 | 0.75 |" in md
    assert "<h2>Head and body</h2>" in (tmp_path / "report.html").read_text()
    head, *lines = (tmp_path / report.TASKS_CSV).read_text().splitlines()
    rows = {r["operator"]: r for r in (dict(zip(head.split(","), x.split(","))) for x in lines)}
    assert rows[OPS[0]]["body_speedup"] == "1.000000" and rows[OPS[0]]["above_noise"] == "True"
    assert rows[OPS[2]]["above_noise"] == "False" and rows[OPS[3]]["body_speedup"] == ""


def test_records_from_before_heads_were_recorded_leave_the_section_out(tmp_path):
    old = [{**t, "baseline_head_us": None, "best_head_us": None} for t in TASKS]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(t) + "\n" for t in old))
    config = SweepConfig(ops=OPS, policies=["p"], budget=4, seeds=1)
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    assert "Head and body" not in report.write_report(tmp_path).read_text()
