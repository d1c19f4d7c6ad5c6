"""docs/examples/grpo_tiny.py end to end: TRL's GRPOTrainer on CPU with the ascend_gym reward."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_example(*args: str) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRL_EXPERIMENTAL_SILENCE": "1"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs/examples/grpo_tiny.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"')]


@pytest.mark.slow
def test_a_random_tiny_lm_trains_on_format_failures():
    rows = run_example("--steps", "2")
    steps = [r for r in rows if "reward" in r]
    assert [r["step"] for r in steps] == [1, 2]
    last = rows[-1]["last_batch"]
    assert {r["status"] for r in last} == {"FORMAT_ERROR"} and all(r["total"] == 0 for r in last)
    assert all(r["simulated"] and r["model"] for r in last)  # labelled even when not evaluated


@pytest.mark.slow
def test_recorded_kernels_give_every_component():
    rows = run_example("--recorded", "--steps", "2")
    steps = [r for r in rows if "reward" in r]
    assert len(steps) == 2 and all(r["reward_std"] > 0 for r in steps)
    assert all(r["ascend/correct"] == 0.5 and r["ascend/format"] == 0.75 for r in steps)
    last = rows[-1]["last_batch"]
    assert [r["status"] for r in last] == ["OK", "OK", "COMPILE_ERROR", "FORMAT_ERROR"]
    assert last[0]["components"]["correct"] == 1.0 and last[2]["components"]["compiled"] == 0.0
    assert all(r["simulated"] and r["model"] for r in last)


@pytest.mark.slow
def test_multi_turn_rollouts_through_the_submit_tool():
    rows = run_example("--tools", "--steps", "2")
    steps = [r for r in rows if "reward" in r]
    assert len(steps) == 2
    assert all(
        r["tools/call_frequency"] == 0.75 and r["tools/failure_frequency"] == 0 for r in steps
    )
    assert all(r["reward_std"] > 0 and "rewards/AscendToolEnv/mean" in r for r in steps)
    # Each rollout's submissions, as the environment scored them: the prose one submitted nothing.
    assert rows[-1]["last_batch"] == [["OK"], ["OK"], ["COMPILE_ERROR"], []]
