"""Every user mistake is one line on stderr and exit status 2, never a traceback; interrupts exit 130.

Each case runs the real console entry point in a subprocess, as a user would."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC, Status
from ascend_gym import bench, metrics
from ascend_gym.cli import INTERRUPTED
from ascend_gym.client import FIRST_USE_NOTICE
from ascend_gym.policies import StepRecord
from ascend_gym.records import SweepConfig, SweepRecord

ADD = suite.SUITE_ROOT / "level1" / "add"


def cli(*args: str, **popen) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        **popen,
    )


def assert_usage_error(done: subprocess.CompletedProcess, *words: str) -> str:
    # The first-use notice precedes the error where this test runs first on a cold build cache.
    lines = [line for line in done.stderr.strip().splitlines() if line != FIRST_USE_NOTICE]
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def dead_address() -> str:
    """The endpoint of a daemon that is gone: a loopback port nothing listens on (as a stopped
    daemon's is), without starting and stopping one."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


def package_copy(tmp_path: Path) -> Path:
    root = tmp_path / "add"
    shutil.copytree(ADD, root, ignore=shutil.ignore_patterns("expert"))
    return root


def test_unknown_operator():
    assert_usage_error(cli("eval", "level1/nope"), "level1/nope", "suite list")


def test_unknown_suite():
    assert_usage_error(cli("eval", "op://nope/level1/add"), "unknown suite 'nope'")
    assert_usage_error(cli("bench", "--suite", "nope"), "unknown suite 'nope'")


def test_missing_and_empty_package_directory(tmp_path):
    assert_usage_error(cli("eval", str(tmp_path / "absent")), "absent")
    (tmp_path / "empty").mkdir()
    assert_usage_error(cli("eval", str(tmp_path / "empty")), "empty")


def test_malformed_op_toml_names_file_line_and_column(tmp_path):
    root = package_copy(tmp_path)
    spec = root / "op.toml"
    spec.write_text(spec.read_text().replace("level = 1", "level = = 1"))
    line = assert_usage_error(cli("eval", str(root)), "op.toml", "malformed TOML")
    assert "line 2, column" in line


def test_invalid_spec_names_file_line_and_field(tmp_path):
    root = package_copy(tmp_path)
    spec = root / "op.toml"
    spec.write_text(spec.read_text().replace("level = 1", "level = 7"))
    assert_usage_error(cli("eval", str(root)), "op.toml:2:1", "level")


def test_spec_without_a_bench_case(tmp_path):
    root = package_copy(tmp_path)
    spec = root / "op.toml"
    spec.write_text(spec.read_text().replace("bench = true", ""))
    assert_usage_error(cli("eval", str(root)), "op.toml", "bench = true")


def test_host_file_that_cannot_be_chosen(tmp_path):
    root = package_copy(tmp_path)
    (root / "op_host" / "add.cpp").rename(root / "op_host" / "add_v1.cpp")
    shutil.copy(root / "op_host" / "add_v1.cpp", root / "op_host" / "add_v2.cpp")
    assert_usage_error(cli("eval", str(root)), "op_host/*.cpp", "host_file")


@pytest.mark.parametrize("flag", ["--budget", "--seeds"])
@pytest.mark.parametrize("value", ["0", "-3"])
def test_non_positive_budget_or_seeds(flag, value):
    assert_usage_error(cli("bench", flag, value), flag, "at least 1")


def test_output_directory_made_with_other_settings(tmp_path):
    out = tmp_path / "sweep"
    out.mkdir()
    saved = SweepConfig(
        ops=["op://ascend-ops-v1/level1/add"], policies=["random"], budget=4, seeds=1
    )
    (out / "sweep.json").write_text(saved.model_dump_json())
    args = ("bench", "--ops", "level1/add", "--budget", "5", "--out", str(out))
    assert_usage_error(cli(*args), "--budget 4", "another --out")


def test_missing_results(tmp_path):
    assert_usage_error(cli("report", str(tmp_path)), "results.jsonl")
    assert_usage_error(cli("validate", str(tmp_path / "nothing.jsonl")), "no results")
    assert_usage_error(cli("export", str(tmp_path), "--out", str(tmp_path / "x")), "results.jsonl")


def test_unknown_case_name():
    assert_usage_error(cli("eval", "level1/add", "--case", "nope"), "no case nope", "bench_fp16")


def test_unknown_policy_and_soc():
    assert_usage_error(cli("bench", "--policies", "nope"), "unknown policy nope", "ascendoptimizer")
    assert_usage_error(cli("eval", "level1/add", "--soc", "Ascend910Z"), "--soc", "Ascend910B4")


def test_closed_pipe():
    proc = subprocess.Popen(
        [sys.executable, "-m", "ascend_gym.cli", "suite", "list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdout.close()  # the reader is gone before the first line, as `| head -0` would be
    stderr = proc.stderr.read()
    assert proc.wait(timeout=120) == 2
    assert "Traceback" not in stderr and stderr.strip().splitlines() == [
        "ascend-gym: output closed early (broken pipe); nothing else to do"
    ]


def test_debug_shows_the_traceback():
    done = cli("eval", "level1/nope", "--debug")
    assert done.returncode == 2 and "Traceback" in done.stderr


def test_help_documents_every_option_and_the_exit_codes():
    top = cli("--help").stdout
    assert "exit status: 0 ok, 1" in top
    helps = {
        v: cli(v, "--help").stdout
        for v in ("eval", "bench", "optimize", "validate", "export", "report")
    }
    for verb, text in helps.items():
        options = [w for w in text.split() if w.startswith("--")]
        assert options, verb
    assert "Ascend910B1" in helps["bench"] and "ascendoptimizer" in helps["bench"]
    assert cli("--version").stdout.startswith("ascend-gym ")


# bench takes both spellings, one option to argparse: the default run waits out the health probe
# with one (6 s on an idle machine), the slow run with the other too.
@pytest.mark.parametrize("flag", ["--daemons", pytest.param("--daemon", marks=pytest.mark.slow)])
def test_a_dead_daemon_stops_bench_before_any_result(tmp_path, flag):
    address = dead_address()
    # The only daemon is gone: the sweep must not start, score anything or print a table.
    out = tmp_path / "sweep"
    args = (
        "bench",
        "--ops",
        "level1/add",
        "--budget",
        "2",
        flag,
        address,
        "--out",
        str(out),
    )
    done = cli(*args)
    assert_usage_error(done, "no answer from daemon", address)
    assert "GM speedup" not in done.stdout and not (out / "results.jsonl").exists()


def _as_from_a_terminal() -> None:
    # A background shell starts commands with SIGINT ignored; a terminal's Ctrl-C is not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(
    "ctrl_c", [True, pytest.param(False, marks=pytest.mark.slow)], ids=["ctrl-c", "sigterm"]
)
def test_an_interrupted_sweep_stops_cleanly_and_resumes(tmp_path, daemon, ctrl_c):
    out = tmp_path / "sweep"
    args = ["bench", "--ops", "level1/add,level1/relu", "--policies", "random"]
    args += ["--budget", "2", "--daemons", daemon, "--out", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ascend_gym.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_from_a_terminal,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (out / "attempts.jsonl").exists():
        time.sleep(0.2)  # a task has started
    if ctrl_c:  # the terminal signals the whole foreground process group
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == f"ascend-gym: {INTERRUPTED}"
    assert "Traceback" not in stderr and "SIGTERM" not in stderr and "signal" not in stderr.lower()
    # Ray's processes of the session must be gone within a few seconds (10 at most).
    gone_by = time.monotonic() + 10
    while _group_alive(proc.pid) and time.monotonic() < gone_by:
        time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    assert "GM speedup" in done.stdout


def test_a_task_whose_daemon_dies_is_an_infrastructure_failure_not_a_result():
    address = dead_address()
    record, best = bench.run_one(
        "random", "op://ascend-ops-v1/level1/add", 0, 2, address, DEFAULT_SOC, "t-infra/a1", {}
    )
    assert not record.ok and record.failure == "infra" and best is None
    assert "DaemonError" in record.error
    config = SweepConfig(ops=[record.operator], policies=["random"], budget=2, seeds=1)
    (row,) = [
        r for r in metrics.table_rows([record], config.ops, ["random"], 1) if r.level == "all"
    ]
    assert row.infra == 1 and row.failed == 0
    assert "1 failed for infrastructure: counted as 1.0" in bench.table([record], config)


def test_a_task_with_a_daemon_fault_in_its_trajectory_is_infra_even_with_its_budget_spent():
    """A policy goes on past an uncharged BUSY and may draw another candidate in its place: what it
    finds then depends on when the daemon faulted, so the task is rerun on resume, not kept."""
    steps = [
        StepRecord(evaluation=1, status=Status.OK, latency_us=5.0, best_us=5.0),
        StepRecord(evaluation=1, status=Status.BUSY, latency_us=None, best_us=5.0),
        StepRecord(evaluation=2, status=Status.OK, latency_us=4.0, best_us=4.0),
    ]
    record = SweepRecord(policy="bon", operator="op://x", seed=0, budget=2, evaluations=2)
    assert bench.fault_error(record) == ""
    record.trajectory = steps
    assert bench.fault_error(record) == "1 evaluation(s) answered by a daemon fault"


def test_a_sweep_whose_local_daemon_dies_stops_to_be_resumed(tmp_path, monkeypatch):
    """A daemon gone mid-sweep would fail every task after it as the infrastructure's (a day of a
    long comparison spent on nothing): the sweep stops, saying why, and its tasks run on resume."""

    class Dying(bench.LocalDaemon):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.process.kill()
            self.process.wait()

    monkeypatch.setattr(bench, "LocalDaemon", Dying)
    config = SweepConfig(
        ops=["op://ascend-ops-v1/level1/add"], policies=["random"], budget=2, seeds=1
    )
    with pytest.raises(bench.DaemonError, match=r"local daemon exited with status -9.*run again"):
        bench.run_bench(config, tmp_path, daemon_workers=1, parallel=1)
    assert not (tmp_path / bench.RESULTS).read_text().strip()  # no task charged to it
    assert bench.resume(tmp_path, config).todo  # the task is still to run


def test_a_policy_actor_that_died_is_the_infrastructures_failure():
    from types import SimpleNamespace

    from ray.exceptions import ActorDiedError, ActorUnschedulableError, RayTaskError

    quiet = SimpleNamespace(last=None)  # no daemon fault answered the task
    assert bench._infra(ActorDiedError(), quiet)
    # Seen in a loaded sweep: the actor's worker could not start, so the policy never ran.
    assert bench._infra(ActorUnschedulableError("worker startup repeatedly failed"), quiet)
    # What the policy's own code raised inside its actor stays the policy's failure.
    raised = RayTaskError("search", "Traceback ...", ValueError("bad rewrite"))
    assert not bench._infra(raised, quiet)
    assert not bench._infra(raised.as_instanceof_cause(), quiet)
