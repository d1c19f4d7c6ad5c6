"""One tiny PPO iteration (RLlib new API stack, action masking) on the discrete env."""

from __future__ import annotations

import pytest

from baselines.ppo_rllib import PPORunConfig, train


@pytest.mark.slow  # RLlib's start-up dominates; the env's conformance tests stay in the default run
def test_one_ppo_iteration():
    """On train's own daemon, which requires run tokens: every env opens the runs it uses."""
    cfg = PPORunConfig(
        ops="level1/add",
        iterations=1,
        budget=2,
        env_runners=1,
        train_batch=32,
        minibatch=16,
        epochs=1,
        hidden=16,
    )
    rows = train(cfg)
    assert len(rows) == 1 and rows[0]["env_steps"] >= 32 and rows[0]["simulated"]
    assert rows[0]["episodes"] >= 1 and rows[0]["best_speedup_mean"] >= 1.0


@pytest.mark.slow  # RLlib's start-up: about a minute on 2 cores
def test_ppo_is_a_bench_policy_under_the_same_budget_and_ledger(tmp_path):
    """PPO shares the table, the ledger check and the report with the other policies (issue 54,
    point 11): it learns online on the task's episode and spends exactly its budget."""
    import json

    from tests.test_cli_errors import cli

    out = tmp_path / "out"
    done = cli(
        "bench", "--ops", "level1/add", "--policies", "ppo,random", "--budget", "4",
        "--out", str(out), "--parallel", "1", "--report",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ppo" in done.stdout and "GM speedup" in done.stdout
    records = {
        r["policy"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())
    }
    ppo = records["ppo"]
    assert ppo["ok"] and ppo["budget_ok"] and ppo["proposer"] == "ppo"
    assert ppo["evaluations"] == ppo["ledger"]["evaluations"] == 4
    assert all(step["phase"] == "ppo" for step in ppo["trajectory"])
    assert "ppo" in (out / "report.md").read_text()
