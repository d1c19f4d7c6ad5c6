"""A sweep killed midway and rerun completes without re-running finished tasks or re-charging them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from ascend_gym.bench import read_jsonl

OPS = "level1/add,level1/mul,level1/relu"


def bench(out, daemon, **popen):
    cmd = [
        sys.executable,
        "-m",
        "ascend_gym.cli",
        "bench",
        "--ops",
        OPS,
        "--policies",
        "bon",
        "--budget",
        "4",
        "--seeds",
        "2",
        "--out",
        str(out),
        "--daemons",
        daemon,
    ]
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen
    )


@pytest.mark.slow  # the default run keeps a shorter check of the same behaviour: tests/test_cli_errors.py resumes an interrupted sweep
def test_killed_sweep_resumes_without_rerunning_finished_tasks(tmp_path, daemon):
    out = tmp_path / "sweep"
    first = bench(
        out, daemon, start_new_session=True
    )  # its own process group: Ray's processes die with it
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(read_jsonl(out / "results.jsonl")) < 1:
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    before = (out / "results.jsonl").read_text().splitlines()
    finished = {(r["policy"], r["operator"], r["seed"]) for r in map(json.loads, before)}
    started = {
        (a["policy"], a["operator"], a["seed"]): a["run_id"]
        for a in read_jsonl(out / "attempts.jsonl")
    }
    assert 1 <= len(finished) < 6, "the kill should land midway"

    second = bench(out, daemon)
    stdout, _ = second.communicate(timeout=600)
    assert second.returncode == 0, stdout[-3000:]
    after = (out / "results.jsonl").read_text().splitlines()
    assert after[: len(before)] == before  # finished records untouched
    records = [json.loads(line) for line in after]
    keys = [(r["policy"], r["operator"], r["seed"]) for r in records]
    assert len(keys) == len(set(keys)) == 6
    for r in records[len(before) :]:
        key = (r["policy"], r["operator"], r["seed"])
        assert key not in finished  # nothing finished was run again
        if key in started:  # interrupted in the first run: a fresh attempt, the abandoned one named
            assert r["abandoned_runs"] == [started[key]] and r["run_id"].endswith("/a2")
        else:
            assert r["abandoned_runs"] == [] and r["run_id"].endswith("/a1")
    for r in records:
        assert r["ok"] and r["evaluations"] == 4 and r["budget_ok"] is not False
    assert "GM speedup" in stdout
