"""Wrong or empty inputs are errors, never a success or a traceback: one line on stderr, exit 2
(issue 35, points 2, 8, 9 and 10). Each case runs the real console entry point in a subprocess."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

from npu_daemon.service.store import Store
from tests.test_cli_errors import assert_usage_error, cli, package_copy


def test_a_copy_of_a_suite_operator_is_judged_by_the_spec_and_reference_it_carries(
    tmp_path, daemon
):
    root = package_copy(tmp_path)
    reference = root / "reference.py"
    reference.write_text(reference.read_text().replace("x + y", "x - y"))
    done = cli("eval", str(root), "--daemon", daemon)
    assert done.returncode == 1 and "WRONG_ANSWER" in done.stdout, done.stdout
    assert "OK" not in done.stdout.splitlines()[0]


def test_a_copy_with_a_missing_reference_function_is_not_judged_as_the_suite_operator(
    tmp_path, daemon
):
    root = package_copy(tmp_path)
    spec = root / "op.toml"
    spec.write_text(
        spec.read_text().replace('reference = "reference:add"', 'reference = "reference:nope"')
    )
    done = cli("eval", str(root), "--daemon", daemon)
    assert done.returncode != 0 and "OK" not in done.stdout.splitlines()[0], done.stdout


def test_a_copy_with_mismatched_shapes_is_not_judged_as_the_suite_operator(tmp_path, daemon):
    root = package_copy(tmp_path)
    spec = root / "op.toml"
    tail = "shapes = { x = [3, 1000], y = [3, 1000] }"
    assert tail in spec.read_text()
    spec.write_text(spec.read_text().replace(tail, "shapes = { x = [3, 1000], y = [3, 500] }"))
    done = cli("eval", str(root), "--daemon", daemon)
    assert done.returncode != 0 and "OK" not in done.stdout.splitlines()[0], done.stdout


def test_optimize_on_a_rejected_baseline(tmp_path, daemon):
    root = package_copy(tmp_path)
    reference = root / "reference.py"
    reference.write_text(reference.read_text().replace("x + y", "x - y"))
    out = tmp_path / "out"
    args = ("optimize", str(root), "--policy", "random", "--budget", "1", "--out", str(out))
    done = cli(*args, "--daemon", daemon)
    assert_usage_error(done, "baseline", "does not pass", "WRONG_ANSWER")
    record = json.loads((out / "result.json").read_text())  # the run's record, as a bench's
    assert (record["ok"], record["failure"]) == (False, "operator")


def test_a_missing_op_toml_field_is_one_line_at_the_top_level_key(tmp_path):
    root = package_copy(tmp_path)
    spec = root / "op.toml"
    spec.write_text(spec.read_text().replace('name = "add"\n', "", 1))
    line = assert_usage_error(cli("eval", str(root)), "invalid op spec: name: Field required")
    assert f"{spec}: " in line  # no line: the key is missing (not a case's `name` further down)


@pytest.mark.parametrize("verb", [("eval", "level1/add", "--daemon"), ("bench", "--daemons")])
def test_an_endpoint_without_a_scheme(verb):
    assert_usage_error(
        cli(*verb, "127.0.0.1:5555"), "not a daemon endpoint", "tcp://127.0.0.1:5555"
    )


def test_bench_out_naming_a_file(tmp_path):
    out = tmp_path / "results.txt"
    out.write_text("")
    assert_usage_error(cli("bench", "--out", str(out)), "is a file")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("bench", "--levels", "2"), ["--levels", "--suite"]),
        (("bench", "--ops", ""), ["--ops is empty"]),
        (("bench", "--ops", ","), ["--ops is empty"]),
    ],
)
def test_bench_selections_that_select_nothing_or_something_else(args, words):
    assert_usage_error(cli(*args), *words)


def test_empty_source_directories(tmp_path):
    assert_usage_error(cli("corpus", "run", str(tmp_path)), "no custom-op directory")
    assert_usage_error(cli("suite", "import", str(tmp_path), "--name", "x1"), "no custom-op")


@pytest.mark.parametrize(
    "verb",
    [
        ("corpus", "run"),
        ("corpus", "check"),
        ("suite", "import", "--name", "x2"),
        ("suite", "materialise", "ascend-real-v1", "--src"),
    ],
)
def test_soc_is_checked_in_corpus_and_suite_import(tmp_path, verb):
    assert_usage_error(cli(*verb, str(tmp_path), "--soc", "AscendNBN"), "--soc", "Ascend910B4")


def test_ledger_of_a_run_the_daemon_never_saw(tmp_path):
    db = tmp_path / "state" / "state.db"
    Store(db).close()  # a daemon's state file, with no run in it
    assert_usage_error(cli("daemon", "ledger", "never-ran", "--db", str(db)), "no run 'never-ran'")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def daemon(state_dir, port: int) -> subprocess.Popen:
    """A daemon on `port` serving from `state_dir`, once it has said READY."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ascend_gym.cli", "daemon", "--workers", "1",
         "--bind", f"tcp://127.0.0.1:{port}", "--state-dir", str(state_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    line = ""
    while time.monotonic() < deadline and not line.startswith("READY"):
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            raise AssertionError(proc.stderr.read())
    return proc


def test_a_second_daemon_on_a_state_dir_in_use_or_a_port_in_use_is_refused(tmp_path):
    port = free_port()
    first = daemon(tmp_path / "state", port)
    try:
        assert_usage_error(
            cli("daemon", "--bind", f"tcp://127.0.0.1:{free_port()}", "--state-dir",
                str(tmp_path / "state")),
            "in use by another daemon", f"pid {first.pid}", "--state-dir",
        )  # fmt: skip
        # The daemon logs its start (INFO lines) before it binds: the error is the last line.
        # Its work dir is its own, so no other test's daemon adds a root there meanwhile.
        (tmp_path / "work").mkdir()
        taken = cli(
            "daemon", "--bind", f"tcp://127.0.0.1:{port}", "--state-dir", str(tmp_path / "b"),
            "--work-dir", str(tmp_path / "work"),
        )  # fmt: skip
        assert taken.returncode == 2 and "Traceback" not in taken.stderr
        # and it leaves no work directory behind
        assert list((tmp_path / "work").iterdir()) == []
        assert "cannot bind" in taken.stderr.splitlines()[-1]
        assert "Address already in use" in taken.stderr.splitlines()[-1]
        assert_usage_error(
            cli("daemon", "--bind", f"127.0.0.1:{port}", "--state-dir", str(tmp_path / "c")),
            "not a ZeroMQ endpoint",
        )
    finally:
        first.terminate()
        first.wait(timeout=60)


def test_suites_are_listed():
    done = cli("suite", "suites", "--json")
    assert done.returncode == 0 and '"suite": "ascend-ops-v1"' in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("suite", "list", "--debug"),
        ("daemon", "ledger", "r", "--debug", "--db", "/nonexistent/x.db"),
    ],
)
def test_debug_is_taken_after_a_nested_verb(args):
    done = cli(*args)
    assert "unrecognized arguments" not in done.stderr, done.stderr


def test_bank_build_needs_an_out_directory():
    assert_usage_error(cli("bank", "build"), "--out")


def test_generate_with_a_reference_that_does_not_parse(tmp_path):
    root = package_copy(tmp_path)
    with (root / "reference.py").open("a") as f:
        f.write("\ndef broken(x:\n")
    assert_usage_error(
        cli("generate", str(root), "--out", str(tmp_path / "g")), "reference.py:", "never closed"
    )


@pytest.mark.parametrize("verb", [("suite", "list"), ("daemon", "ledger"), ("corpus", "run")])
def test_nested_verbs_describe_themselves(verb):
    lines = cli(*verb, "--help").stdout.splitlines()
    description = next(line for line in lines[1:] if line.strip())
    assert not description.startswith(("positional", "options")), lines[:4]


def test_a_command_line_imports_only_its_own_verbs_module():
    # Start-up is most of a short command's time: the other verbs' modules stay unimported, and
    # they are still choices (an unknown verb is told apart from a known one).
    code = (
        "import sys; from ascend_gym.cli import COMMANDS, parser; top, modules = parser('eval'); "
        "print(sorted(modules), sorted(m for m in COMMANDS.values() if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['eval']", "['ascend_gym.commands.eval']"], done.stdout
    assert_usage_error(cli("evl", "level1/add"), "invalid choice: 'evl'", "'bench'")


def test_nested_verbs_show_their_defaults():
    text = " ".join(cli("bank", "build", "--help").stdout.split())
    assert "at least this (default: 5.0)" in text and "(default 0) (default" not in text
