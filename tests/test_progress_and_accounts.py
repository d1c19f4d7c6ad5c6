"""What a sweep prints while it runs and what its account counts (issue 54, points 6 and 14)."""

from __future__ import annotations

from ascend_gym import bench, metrics
from ascend_gym.records import SweepRecord


def record(**fields) -> SweepRecord:
    base = {"policy": "bon", "operator": "op://ascend-ops-v1/level1/add", "seed": 0, "budget": 4}
    return SweepRecord(**{**base, **fields})


def test_the_progress_line_cuts_at_a_word_and_names_the_protocol(capsys):
    progress = bench.Progress(total=2, budget_total=8, done=0, spent=0)
    progress.tty = True
    failed = record(ok=False, failure="policy", error="RuntimeError: " + "something broke " * 20)
    message = bench.describe(failed)
    progress.show(0, message)
    tail = capsys.readouterr().out.split("included)", 1)[1].split()
    assert tail[-1] == "..." and len(" ".join(tail)) <= 60
    assert tail[:-1] == message.split()[: len(tail) - 1]  # whole words, none cut
    ok = record(ok=True, baseline_us=10.0, best_us=8.0, evaluations=4, timing_protocol="warm")
    assert "1.250x (warm protocol) in 4 evaluations" in bench.describe(ok)


def test_the_account_counts_the_model_calls_of_an_attempt_a_rerun_replaced():
    failed = record(ok=False, failure="infra", llm_calls=5, prompt_chars=500, model="m")
    rerun = record(ok=True, llm_calls=3, prompt_chars=300, model="m", evaluations=4)
    (account,) = metrics.accounts([rerun], ["bon"], attempts=[failed, rerun])
    assert (account.llm_calls, account.prompt_chars, account.tasks) == (8, 800, 1)
    (latest_only,) = metrics.accounts([rerun], ["bon"])
    assert latest_only.llm_calls == 3


def test_the_report_says_whose_stages_shade_the_trajectories(tmp_path):
    from ascend_core.protocol import Status
    from ascend_gym import report
    from ascend_gym.policies import StepRecord
    from ascend_gym.records import SweepConfig

    def steps(phase: str) -> list[StepRecord]:
        return [
            StepRecord(evaluation=i, status=Status.OK, latency_us=9.0, best_us=9.0, phase=phase)
            for i in (1, 2)
        ]

    common = {"ok": True, "baseline_us": 10.0, "best_us": 9.0, "evaluations": 2, "budget": 2}
    records = [
        record(policy="ascendoptimizer", trajectory=steps("stage1"), **common),
        record(policy="bon", trajectory=steps(""), **common),
    ]
    config = SweepConfig(
        ops=[records[0].operator], policies=["ascendoptimizer", "bon"], budget=2, seeds=1
    )
    (tmp_path / "sweep.json").write_text(config.model_dump_json())
    (tmp_path / "results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records))
    text = report.write_report(tmp_path).read_text()
    assert "Shaded by the stage of ascendoptimizer (seed 0)" in text
    assert "Stage I grey (no evaluation reached Stage II)" in text
    assert "max-width:1360px" in (tmp_path / "report.html").read_text()
