"""docs/design.md 3.4 metrics and the report, on hand-made records (no daemon)."""

from __future__ import annotations

import itertools
import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from ascend_gym import bench, metrics, report
from ascend_gym.records import SweepConfig, SweepRecord

ROOT = Path(__file__).resolve().parents[1]

OPS = ["op://s/level1/a", "op://s/level1/b", "op://s/level2/c", "op://s/level3/d"]


def test_speedup_geomean_and_strict_fast_p():
    assert metrics.speedup(10.0, None) == 1.0 and metrics.speedup(10.0, 5.0) == 2.0
    speedups = [2.0, 1.0, 0.5, 1.2]
    assert metrics.geomean(speedups) == pytest.approx((2.0 * 1.0 * 0.5 * 1.2) ** 0.25)
    assert metrics.fast_p(speedups, 1.0) == 0.5  # strict: 1.0 itself does not count
    assert metrics.fast_p(speedups, 1.2) == 0.25  # nor does 1.2 for p = 1.2
    summary = metrics.summarize(speedups)
    assert summary["ops"] == 4 and summary["fast_2.0"] == 0.0


def step(evaluation, best_us, status="OK", latency_us=None):
    return {
        "evaluation": evaluation,
        "status": status,
        "latency_us": best_us if latency_us is None and status == "OK" else latency_us,
        "best_us": best_us,
    }


def record(policy, op, seed, speedup=None, ok=True, budget=4, trajectory=()):
    return SweepRecord.model_validate(raw(policy, op, seed, speedup, ok, budget, trajectory))


def raw(policy, op, seed, speedup=None, ok=True, budget=4, trajectory=()):
    r = {
        "policy": policy,
        "operator": op,
        "seed": seed,
        "budget": budget,
        "ok": ok,
        "simulated": True,
        "backend": "sim",
        "soc": "Ascend910B4",
        "proposer": "offline",
    }
    if ok:
        r.update(
            baseline_us=100.0,
            best_us=100.0 / speedup,
            evaluations=budget,
            trajectory=list(trajectory),
        )
    return r


def test_a_paired_comparison_counts_operators_both_ran_and_bootstraps_its_ratio():
    """Per operator the geometric mean over seeds; ahead, tied and behind by operator; the
    interval fixed (the bootstrap's draws are seeded) and around the ratio."""
    a = [
        *(record("a", OPS[0], s, 2.0) for s in (0, 1)),
        *(record("a", OPS[1], s, 1.0) for s in (0, 1)),
        record("a", OPS[2], 0, 1.5),
    ]
    b = [
        record("b", OPS[0], 0, 1.0),
        record("b", OPS[0], 1, 4.0),  # 2.0 over its seeds: a tie with a's 2.0
        *(record("b", OPS[1], s, 1.0) for s in (0, 1)),
        record("b", OPS[2], 0, 1.2),
        record("b", OPS[3], 0, 3.0),  # a never ran it: left out
    ]
    p = metrics.paired(a, b)
    assert (p.ops, p.ahead, p.tied, p.behind) == (3, 1, 2, 0)
    assert p.ratio == pytest.approx(1.25 ** (1 / 3))
    assert 1.0 <= p.low <= p.ratio <= p.high <= 1.25
    assert metrics.paired(a, b) == p
    assert metrics.paired(a, [record("b", OPS[3], 0, 3.0)]) is None


def test_failures_and_missing_ops_count_as_baseline_in_all_op_denominators():
    records = [
        record("p", OPS[0], 0, 2.0),
        record("p", OPS[1], 0, ok=False),
        record("p", OPS[2], 0, 1.5),
    ]  # OPS[3] missing
    rows = {r.level: r for r in metrics.table_rows(records, OPS, ["p"], seeds=1)}
    assert set(rows) == {"1", "2", "3", metrics.OVERALL}
    overall = rows[metrics.OVERALL]
    assert overall.ops == 4 and overall.missing == 1 and overall.failed == 1
    assert overall.gm == pytest.approx((2.0 * 1.0 * 1.5 * 1.0) ** 0.25)
    assert overall.fast["1.0"] == 0.5 and overall.fast["1.4"] == 0.5 and overall.fast["2.0"] == 0.0
    assert rows["1"].gm == pytest.approx(math.sqrt(2.0)) and rows["1"].fast["1.0"] == 0.5
    assert rows["3"].gm == 1.0 and rows["3"].missing == 1


def test_seeds_are_averaged_per_seed_metrics():
    records = [record("p", OPS[0], 0, 2.0), record("p", OPS[0], 1, 1.0)]
    row = next(
        r
        for r in metrics.table_rows(records, OPS[:1], ["p"], seeds=2)
        if r.level == metrics.OVERALL
    )
    assert (
        row.gm == pytest.approx(1.5) and row.gm_std == pytest.approx(0.5) and row.fast["1.0"] == 0.5
    )


def test_best_so_far_follows_trajectory_and_stays_monotone():
    steps = [step(1, 100.0), step(2, 50.0), step(2, 50.0)]
    curve = metrics.best_so_far(record("p", OPS[0], 0, 2.0, trajectory=steps))
    assert curve == [1.0, 1.0, 2.0, 2.0, 2.0]  # budget 4 -> 5 points, flat after the last step
    assert metrics.best_so_far(record("p", OPS[0], 0, ok=False)) == [1.0] * 5


def test_expected_best_of_k_is_the_average_over_all_orderings():
    samples = [1.3, 0.5, 2.0, 1.1]
    brute = [1.0] + [
        statistics.fmean(
            max([1.0] + [max(1.0, s) for s in order[:k]])
            for order in itertools.permutations(samples)
        )
        for k in range(1, 5)
    ]
    assert metrics.expected_best_of_k(samples) == pytest.approx(brute)
    assert metrics.expected_best_of_k(samples)[-1] == 2.0


def test_seed_curves_take_geomean_over_ops():
    records = [record("p", OPS[0], 0, 4.0, trajectory=[step(1, 25.0)])]
    curves = metrics.seed_curves(records, OPS[:2], "p", seeds=1, budget=2)
    assert curves == [
        [1.0, pytest.approx(2.0), pytest.approx(2.0)]
    ]  # sqrt(4 * 1): the missing op counts 1.0
    mean, lo, hi = metrics.curve_band(curves + [[1.0, 1.0, 1.0]])
    assert mean[1] == pytest.approx(1.5) and lo[1] == 1.0 and hi[1] == pytest.approx(2.0)


def figure_texts(monkeypatch) -> list[list[str]]:
    """The titles of every figure saved from now on, one list per figure."""
    from matplotlib.figure import Figure

    texts: list[list[str]] = []
    save = Figure.savefig

    def recording(fig, *args, **kwargs):
        texts.append([t.get_text() for t in fig.texts] + [a.get_title() for a in fig.axes])
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", recording)
    return texts


def test_best_of_n_best_so_far_follows_its_trajectory_like_every_policy():
    steps = [step(1, 100.0), step(2, 50.0), step(3, 50.0)]
    r = record("bon", OPS[0], 0, 2.0, budget=3, trajectory=steps)
    r.expected_speedup = [1.0, 1.33, 1.67, 2.0]  # the ordering average is not the figure's curve
    assert metrics.best_so_far(r) == [1.0, 1.0, 2.0, 2.0]


def test_accounting_per_policy_in_the_report_and_tasks_csv(tmp_path):
    model = {"model": "m1", "llm_calls": 5, "prompt_tokens": 700, "completion_tokens": 90}
    records = [
        {**raw("bon", OPS[0], 0, 1.5, budget=8), **model, "proposer": "llm", "prompt_chars": 3000},
        {**raw("random", OPS[0], 0, 1.2, budget=8), "evaluations": 3},
        {**raw("random", OPS[1], 0, 1.0, budget=8), "evaluations": 0},  # nothing to propose
        {
            **raw("openevolve", OPS[0], 0, ok=False, budget=8),
            "failure": "infra",
            "ledger": {"evaluations": 2},
            "llm_calls": 8,
        },
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    config = SweepConfig(ops=OPS[:2], policies=["bon", "random", "openevolve"], budget=8, seeds=1)
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    md = report.write_report(tmp_path).read_text()
    assert "## Budget accounting per policy" in md
    assert "| bon | llm | m1 | 1 | 0 | 8 / 8 | 5 | 700 / 90 | 3000 / 0 |" in md
    assert "| random | offline | - | 2 | 1 | 3 / 16 | 0 | 0 / 0 | 0 / 0 |" in md
    assert "| openevolve | offline | - | 1 | 0 | 2 / 8 | 8 |" in md  # a failed task spent too
    assert "1.000x, 100.0 us [1 of 1 spent no evaluation]" in md  # never a silent 1.000x
    (row,) = [
        r
        for r in metrics.table_rows(
            [SweepRecord.model_validate(x) for x in records], OPS[:2], ["random"], 1
        )
        if r.level == metrics.OVERALL
    ]
    assert row.idle == 1
    assert "1 spent no evaluation: counted as 1.0" in bench.table(
        [SweepRecord.model_validate(x) for x in records], config
    )
    assert "Budget accounting per policy" in (tmp_path / "report.html").read_text()
    # bon 1.5x and random 1.2x on OPS[0], the one operator both ran; openevolve's failed task 1.0.
    assert "| bon | random | 1 | 1.250 | [1.250, 1.250] | 1 | 0 | 0 |" in md
    assert "| random | openevolve | 1 | 1.200 |" in md
    assert "Policy against policy" in (tmp_path / "report.html").read_text()
    head, *lines = (tmp_path / report.TASKS_CSV).read_text().splitlines()
    rows = [dict(zip(head.split(","), line.split(","))) for line in lines]
    task = {(r["policy"], r["operator"]): r for r in rows}
    assert task["bon", OPS[0]]["llm_calls"] == "5"
    assert task["bon", OPS[0]]["model"] == "m1"
    assert task["random", OPS[0]]["evaluations"] == "3"
    # The same count as the table's: the ledger's, also for the task that failed.
    assert task["openevolve", OPS[0]]["evaluations"] == "2"


def test_a_task_that_found_nothing_is_told_apart_by_why(tmp_path):
    """No gain is not one thing: no search, only failures, knobs that do not move the latency,
    or a local optimum; the report splits a policy's tasks by which, and counts failing
    candidates by status (cache hits left out)."""
    cache_hit = {**step(2, 100.0, "WRONG_ANSWER"), "cache_hit": True}
    tasks = {
        "spent no evaluation": {**raw("p", OPS[0], 0, 1.0), "evaluations": 0},
        "every candidate failed": raw(
            "p", OPS[1], 0, 1.0, trajectory=[step(1, 100.0, "WRONG_ANSWER"), cache_hit]
        ),
        "every passing candidate timed as the baseline": raw(
            "p", OPS[2], 0, 1.0, trajectory=[step(1, 100.0), step(2, 100.0, "RACE_DETECTED")]
        ),
        "no passing candidate faster": raw(
            "p", OPS[3], 0, 1.0, trajectory=[step(1, 100.0, latency_us=130.0), step(2, 100.0)]
        ),
        None: raw("p", OPS[0], 1, 1.25, trajectory=[step(1, 80.0)]),
    }
    for cause, r in tasks.items():
        assert metrics.stall(SweepRecord.model_validate(r)) == cause
    assert metrics.stall(record("p", OPS[1], 1, ok=False)) is None  # unfinished: no cause
    (s,) = metrics.stalls([SweepRecord.model_validate(r) for r in tasks.values()], ["p"])
    assert s.tasks == 5 and list(s.causes.values()) == [1, 1, 1, 1, 0]
    assert s.candidates == 6 and s.failed == {"WRONG_ANSWER": 1, "RACE_DETECTED": 1}
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in tasks.values()))
    config = SweepConfig(ops=OPS, policies=["p"], budget=4, seeds=2)
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    md = report.write_report(tmp_path).read_text()
    assert "## Where the search found nothing" in md
    assert "Policy against policy" not in md  # one policy: no pair
    assert "| p | 5 | 1 | 1 | 1 | 1 | 2 of 6 (WRONG_ANSWER 1, RACE_DETECTED 1) |" in md
    assert "wrong on fresh inputs" not in md  # never rechecked: no column claims they held

    # A faster best that failed its recheck on fresh inputs is no speedup, and says so.
    wrong = {
        **raw("p", OPS[1], 1, 1.25, trajectory=[step(1, 80.0)]),
        "recheck": {
            "seeds": [7, 9],
            "status": "WRONG_ANSWER",
            "message": "case bench_fp16, output z",
        },
    }
    assert metrics.stall(SweepRecord.model_validate(wrong)) == "faster best wrong on fresh inputs"
    assert metrics.record_speedup(SweepRecord.model_validate(wrong)) == 1.0
    with (tmp_path / "results.jsonl").open("a") as f:
        f.write(json.dumps(wrong) + "\n")
    md = report.write_report(tmp_path).read_text()
    assert "| p | 6 | 1 | 1 | 1 | 1 | 1 | 2 of 7 (WRONG_ANSWER 1, RACE_DETECTED 1) |" in md
    assert "[1 of 2 wrong on fresh inputs]" in md
    records = [SweepRecord.model_validate(r) for r in [*tasks.values(), wrong]]
    assert "1 wrong on fresh inputs" in bench.table(records, config)


def test_a_staged_search_is_split_by_stage(tmp_path):
    """A staged policy's charged evaluations per stage (cache hits left out) and, per stage, the
    tasks whose best candidate it found first; a policy without stages has no row."""

    def staged(evaluation, phase, latency_us, cache_hit=False):
        return {**step(evaluation, latency_us), "phase": phase, "cache_hit": cache_hit}

    tasks = [
        raw(
            "ao",
            OPS[0],
            0,
            1.25,
            trajectory=[staged(1, "stage1", 100.0), staged(2, "stage2", 80.0)],
        ),
        raw(
            "ao",
            OPS[1],
            0,
            2.0,
            trajectory=[
                staged(1, "stage1", 50.0),
                staged(2, "stage2", 50.0),
                staged(3, "stage2", 50.0, cache_hit=True),
            ],
        ),
        raw("ao", OPS[2], 0, 1.0, trajectory=[staged(1, "stage1", 100.0)]),
        raw("bon", OPS[0], 0, 2.0, trajectory=[step(1, 50.0)]),
    ]
    (s,) = metrics.stages([SweepRecord.model_validate(r) for r in tasks], ["ao", "bon"])
    assert s.policy == "ao" and s.tasks == 3
    assert s.evaluations == {"stage1": 3, "stage2": 2}
    assert s.best_from == {"stage1": 1, "stage2": 1}
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in tasks))
    config = SweepConfig(ops=OPS, policies=["ao", "bon"], budget=4, seeds=1)
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    md = report.write_report(tmp_path).read_text()
    assert "## By stage" in md and "| ao | 3 | 3 | 2 | 1 | 1 |" in md
    assert "| bon | 1 |" not in md.split("## By stage")[1].split("##")[0]


def test_running_time_leaves_out_the_pause_between_sessions(tmp_path):
    """Two overlapping tasks, a pause of an hour, then one more: 150 s of running time."""
    records, attempts = [], []
    for i, (start, wall) in enumerate([(1000.0, 100.0), (1050.0, 100.0), (4750.0, 0.0)]):
        records.append(SweepRecord(**raw("bon", OPS[i], 0, 1.0), run_id=f"r{i}", wall_s=wall))
        attempts.append(
            {"policy": "bon", "operator": OPS[i], "seed": 0, "run_id": f"r{i}", "time": start}
        )
    (tmp_path / "attempts.jsonl").write_text("".join(json.dumps(a) + "\n" for a in attempts))
    times = report.timing(tmp_path, records)
    assert times["running_s"] == 150.0  # 1000-1150; the third task took no time
    assert times["wall_s"] == 3750.0  # pause included
    assert times["task_s"] == 200.0
    assert times["per_minute"] == 3 * 4 / 2.5  # 12 evaluations in 2.5 minutes of running


def test_report_from_a_small_results_file(tmp_path, monkeypatch):
    titles = figure_texts(monkeypatch)
    stage = [
        {
            "evaluation": 1,
            "status": "OK",
            "latency_us": 80.0,
            "best_us": 80.0,
            "cache_hit": False,
            "phase": "stage1",
        },
        {
            "evaluation": 2,
            "status": "COMPILE_ERROR",
            "latency_us": None,
            "best_us": 80.0,
            "cache_hit": False,
            "note": "Stage II rewrite",
        },
    ]
    records = [
        raw(p, op, s, 1.0 + 0.1 * i, trajectory=stage)
        for i, (p, op, s) in enumerate(itertools.product(["bon", "openevolve"], OPS, range(2)))
    ]
    records[0] = raw("bon", OPS[0], 0, ok=False)
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    config = SweepConfig(
        ops=OPS, policies=["bon", "openevolve"], budget=4, seeds=2, command="ascend-gym bench ..."
    )
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    path = report.write_report(tmp_path)
    md = path.read_text()
    assert "simulated" in md and "| L2 (1) | bon |" in md and "| all 4 | openevolve |" in md
    assert "fast_1.4" in md
    assert "1 failed" in md and "ascend-gym bench ..." in md
    for name in report.FIGURES.values():
        assert (tmp_path / name).stat().st_size > 5000
    assert "<table>" in (tmp_path / "report.html").read_text()
    assert [metrics.phase_of(s) for s in stage] == ["stage1", "stage2"]
    assert "Stage I grey, Stage II hatched" in md  # the caption names what the figure shades
    import matplotlib.pyplot as plt

    policy_colours = set(plt.rcParams["axes.prop_cycle"].by_key()["color"])
    assert not {s["facecolor"] for s in report.PHASE_STYLES.values()} & policy_colours
    # Every figure says its latencies are simulated.
    assert len(titles) == len(report.FIGURES)
    assert all(any("simulated" in t for t in figure) for figure in titles), titles
    assert "## Per operator" in md and "| level2/c |" in md
    tasks = (tmp_path / report.TASKS_CSV).read_text().splitlines()
    assert len(tasks) == 1 + len(records) and ",failed," in tasks[1]


def test_report_refuses_to_mix_simulated_and_npu_results(tmp_path):
    records = [
        raw("p", OPS[0], 0, 1.0),
        {**raw("p", OPS[1], 0, 1.0), "simulated": False, "backend": "cann"},
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(ValueError, match="separately"):
        report.write_report(tmp_path)


def _benchmark(script: str, *args: str) -> str:
    """What benchmarks/<script> prints, run from the repository's root; it must succeed."""
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _tables_shown(sweep: str, rows: dict[str, str]) -> str:
    """benchmarks/comparison_tables.py over a committed comparison: each row it prints (key) is
    shown in docs/RESULTS.md as given (value). Returns the tables."""
    out = _benchmark("comparison_tables.py", sweep)
    results = (ROOT / "docs" / "RESULTS.md").read_text()
    for printed, shown in rows.items():
        assert printed in out and shown in results
    return out


def test_the_comparison_tables_give_results_md_its_figures():
    """The committed ascend-ops-v1 comparison gives the rows docs/RESULTS.md shows for it."""
    stage2 = "| 1.021 | 1.150 | 1.080 | 1.077 | 0.72 | 0.20 | 477 |"
    rows = [
        "| L1 (36) | bon | 1.156 ± 0.023 | 1.00 | 0.15 | 0.00 | 0.00 |",
        "| all 71 | openevolve | 1.217 ± 0.016 | 0.98 | 0.54 | 0.06 | 0.01 |",
        "| bon | 71 | 1.060 | [1.045, 1.077] | 50 | 20 | 1 |",
    ]
    out = _tables_shown(
        "docs/sweeps/rerun",
        {
            **{r: r for r in rows},
            f"| stage2-only {stage2}": f"| stage2-only (kernel rewriting) {stage2}",
        },
    )
    assert "| ascendoptimizer (stage2-only) | 213 | 0 | 0 | 0 | 60 | 0 of 477 |" in out
    assert "| ascendoptimizer | 213 | 7,408 | 1,013 | 139 | 70 |" in out
    assert (
        "- full (Ascend910B4, cold protocol): 639 / 639 tasks, 25,291 evaluations; ledger "
        "check: 639 verified, 0 over" in out
    )


def test_the_comparison_tables_give_the_real_suite_results_their_figures():
    """The same over the committed ascend-real-v1 comparison: its Table 3, paired and ablation
    rows, and the ceiling of every bench's best."""
    ao = "| 1.136 ± 0.000 | 0.70 | 0.14 | 0.07 | 0.04 | 19,059 / 26,640 |"
    stage1 = "| 1.096 | 1.088 | 1.080 | 1.089 | 0.65 | 0.10 | 18,433 |"
    rows = [
        "| all 222 | bon (N = 5) | 1.106 ± 0.004 | 0.60 | 0.10 | 0.06 | 0.04 | 3,318 / 3,330 | 3 |",
        "| bon | 222 | 1.003 | [1.002, 1.004] | 31 | 188 | 3 |",
    ]
    out = _tables_shown(
        "docs/sweeps/real-v1",
        {
            **{r: r for r in rows},
            f"| all 222 | ascendoptimizer {ao}": f"| all 222 | ascendoptimizer {ao}".replace(
                "| 1.136 ±", "| **1.136** ±"
            ),
            f"| stage1-only {stage1}": f"| stage1-only (tiling evolution) {stage1}",
        },
    )
    assert "3,996 tasks): GM 1.136, fast_1.0 0.70" in out


def test_the_headroom_table_sorts_the_unimproved_baselines_by_bound():
    """benchmarks/headroom.py over the committed ascend-ops-v1 comparison: the one operator no
    task of any bench made 2 % faster, its baseline re-timed and put in its class."""
    out = _benchmark("headroom.py", "docs/sweeps/rerun")
    assert (
        out.splitlines()[0]
        == "1 of 71 operators unimproved (simulated, Ascend910B4, cold protocol)"
    )
    # The baseline is re-timed by the current model: its figure moves with the model's constants.
    row = re.search(r"^\| mte2 \| 1 \| ([\d.]+) \| rotary_embedding ([\d.]+) \|$", out, re.M)
    assert row and row[1] == row[2] and 150 < float(row[1]) < 300, out
