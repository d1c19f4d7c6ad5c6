"""A bench's or optimize's results are reusable: best candidates kept, validated, exported, re-run."""

from __future__ import annotations

import json
import subprocess
import sys

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Status
from ascend_gym.client import DaemonClient
from ascend_gym.commands.common import daemon_client
from ascend_gym.commands.export import spec_toml
from ascend_gym.records import SweepRecord, load_candidate, read_records


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", *args], capture_output=True, text=True, timeout=900
    )


def test_the_embedded_daemon_requires_run_tokens():
    with daemon_client(None) as client:
        request = EvalRequest(run_id="never-opened", package=suite.resolve("level1/add"))
        result = client.evaluate(request)
    assert result.status is Status.REJECTED and "requires run tokens" in result.message


def test_bench_results_validate_and_the_export_evaluates_to_the_record(tmp_path, token_daemon):
    daemon = token_daemon  # every evaluation below goes under a run it opened
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


def test_optimize_writes_what_its_help_promises(tmp_path, token_daemon):
    daemon = token_daemon
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


def test_a_warm_sweep_validates_warm_and_retimes_under_either_protocol(tmp_path, token_daemon):
    daemon, out = token_daemon, tmp_path / "warm"
    done = cli(
        "bench", "--ops", "level1/relu", "--policies", "random,bon", "--budget", "3",
        "--timing-protocol", "warm", "--daemons", daemon, "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = read_records(out / "results.jsonl")
    client = DaemonClient(daemon)
    client.open_run("t-relu-protocols", 2)
    timed = {
        protocol: client.evaluate(
            EvalRequest(
                run_id="t-relu-protocols",
                package=suite.resolve("level1/relu"),
                timing_protocol=protocol,
            )
        ).latency_us
        for protocol in ("cold", "warm")
    }
    client.close()
    assert timed["warm"] < timed["cold"]
    assert {(r.timing_protocol, r.baseline_us) for r in records} == {("warm", timed["warm"])}

    checked = cli("validate", str(out), "--daemon", daemon, "--seeds", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr  # re-timed warm, as recorded

    same = cli("retime", str(out), "--daemon", daemon)  # the sweep's own protocol: its own table
    assert same.returncode == 0, same.stderr
    assert "under the warm protocol" in same.stdout
    table = done.stdout.split("results.jsonl:")[1].split()
    assert all(cell in same.stdout.split() for cell in table if cell[0].isdigit())

    cold = tmp_path / "cold"
    moved = cli(
        "retime", str(out), "--timing-protocol", "cold", "--daemon", daemon, "--out", str(cold)
    )
    assert moved.returncode == 0, moved.stderr
    retimed = read_records(cold / "results.jsonl")
    assert {(r.timing_protocol, r.baseline_us) for r in retimed} == {("cold", timed["cold"])}
    assert cli("report", str(cold)).returncode == 0

    mixed = cli(
        "bench", "--ops", "level1/relu", "--policies", "random", "--budget", "3",
        "--daemons", daemon, "--out", str(out),
    )  # fmt: skip
    assert mixed.returncode == 2 and "--timing-protocol warm" in mixed.stderr

    # A pick whose package is gone (a sweep copied without candidates/) is not re-timed under the
    # new label with its old latency: retime refuses the sweep.
    kept = sorted((out / "candidates").iterdir())
    kept[0].unlink()
    gone = cli("retime", str(out), "--timing-protocol", "cold", "--daemon", daemon)
    assert gone.returncode == 2 and "cannot be re-timed" in gone.stderr, gone.stderr
    assert len(gone.stderr.strip().splitlines()) == 1
