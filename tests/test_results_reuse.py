"""A bench's or optimize's results are reusable: best candidates kept, validated, exported, re-run."""

from __future__ import annotations

import json
import subprocess
import sys

from ascend_core import suite
from ascend_gym.commands.export import spec_toml
from ascend_gym.records import SweepRecord, load_candidate, read_records


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", *args], capture_output=True, text=True, timeout=900
    )


def test_bench_results_validate_and_the_export_evaluates_to_the_record(tmp_path, daemon):
    out = tmp_path / "sweep"
    done = cli(
        "bench", "--ops", "level1/relu", "--policies", "random", "--budget", "3",
        "--daemons", daemon, "--out", str(out), "--report",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (record,) = read_records(out / "results.jsonl")
    assert record.ok and record.best_file.startswith("candidates/")
    best = load_candidate(out, record)
    assert best.content_hash() == record.best_hash  # the sources, not only the hash

    checked = cli("validate", str(out), "--daemon", daemon, "--seeds", "1", "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (verdict,) = [json.loads(line) for line in checked.stdout.splitlines()]
    assert verdict["outcome"] == "OK" and verdict["retimed_best_us"] == record.best_us

    package = tmp_path / "relu_best"
    exported = cli("export", str(out), "--op", "level1/relu", "--out", str(package))
    assert exported.returncode == 0, exported.stderr
    assert (package / "op.toml").is_file() and (package / "op_kernel" / "relu.cpp").is_file()
    evaluated = cli("eval", str(package), "--daemon", daemon, "--json")
    assert evaluated.returncode == 0, evaluated.stderr
    assert json.loads(evaluated.stdout)["latency_us"] == record.best_us


def test_optimize_writes_what_its_help_promises(tmp_path, daemon):
    out = tmp_path / "run"
    done = cli(
        "optimize", "level1/add", "--policy", "random", "--budget", "2",
        "--daemon", daemon, "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    record = SweepRecord.model_validate_json((out / "result.json").read_text())
    assert record.ok and record.evaluations == 2 and record.ledger.evaluations == 2
    steps = (out / "trajectory.jsonl").read_text().splitlines()
    assert len(steps) == len(record.trajectory) >= 2
    assert (out / "best" / "op.toml").is_file() and (out / record.best_file).is_file()
    checked = cli("validate", str(out), "--daemon", daemon, "--seeds", "1")
    assert checked.returncode == 0 and "1 agree" in checked.stdout, checked.stdout


def test_op_toml_round_trips_for_every_suite_operator():
    for uri in suite.op_uris():
        spec = suite.resolve(uri).spec
        assert spec_toml(spec)  # raises if the written spec reads back different
