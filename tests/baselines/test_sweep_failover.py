"""A sweep over two daemons survives losing one: tasks on the dead daemon move to the other, every
task finishes, and every ledger row (receipts for the dead daemon) is within budget."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from ascend_gym.bench import read_jsonl
from ascend_gym.client import DaemonClient, DaemonError, LocalDaemon

BUDGET = 6


@pytest.mark.slow
def test_a_sweep_finishes_when_one_of_its_two_daemons_dies(tmp_path):
    a = LocalDaemon(workers=1, state_dir=tmp_path / "a")
    b = LocalDaemon(workers=1, state_dir=tmp_path / "b")
    out = tmp_path / "sweep"
    cmd = [sys.executable, "-m", "ascend_gym.cli", "bench", "--ops", "level1/add,level1/mul"]
    cmd += ["--policies", "bon,ascendoptimizer", "--budget", str(BUDGET), "--seeds", "1"]
    cmd += ["--out", str(out), "--daemons", f"{a.address},{b.address}"]
    sweep = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    probe = DaemonClient(a.address)
    try:
        # Kill `a` mid-run: while it is evaluating, after it charged some evaluations.
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            try:
                health, stats = probe.health(), probe.stats()
            except DaemonError:
                health = stats = None
            if stats is not None and stats.evaluations >= 3 and health.running:
                break
            time.sleep(0.2)
        assert len(read_jsonl(out / "results.jsonl")) < 4, "the kill should land mid-sweep"
        a.process.send_signal(signal.SIGKILL)
        stdout, _ = sweep.communicate(timeout=900)
    finally:
        probe.close()
        if sweep.poll() is None:
            sweep.kill()
        a.close()
        b.close()
    assert sweep.returncode == 0, stdout[-3000:]
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 4 and all(r["ok"] for r in records), stdout[-3000:]
    for r in records:
        assert r["evaluations"] == BUDGET and r["budget_ok"] is True
        assert r["ledger"]["evaluations"] == BUDGET == sum(r["served_by"].values())
    moved = [r for r in records if len(r["served_by"]) == 2]
    assert moved, "a task on the killed daemon should have moved to the other"
