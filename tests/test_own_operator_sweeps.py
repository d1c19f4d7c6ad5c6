"""A sweep of one's own operators, given as directories (issue 54, points 1, 2, 7 and 8): one
failing operator is reported as failed, the rest of the sweep and its report complete."""

from __future__ import annotations

import json
import os

from ascend_core.protocol import DEFAULT_TIMING_PROTOCOL
from ascend_gym import metrics
from ascend_gym.records import SweepRecord
from tests.test_cli_errors import assert_usage_error, cli, package_copy


def test_an_own_operator_without_a_level_in_its_address_is_grouped_by_its_spec(tmp_path):
    root = package_copy(tmp_path)
    record = SweepRecord(
        policy="random", operator=str(root), seed=0, budget=1, soc="Ascend910B4", ok=False
    )  # what a task whose baseline failed records: no level
    assert metrics.level_groups([str(root)], [record]) == [("1", [str(root)])]


def test_a_sweep_of_own_operators_reports_the_failing_one_as_failed(tmp_path, daemon):
    good = package_copy(tmp_path / "good")
    bad = package_copy(tmp_path / "bad")
    reference = bad / "reference.py"
    reference.write_text(reference.read_text().replace("x + y", "x - y"))  # the baseline fails
    out = tmp_path / "out"
    args = ("bench", "--ops", f"{good},{bad}", "--policies", "random", "--budget", "1")
    args += ("--daemons", daemon)  # the session's (bench's own daemon: test_cli_model.py)
    for _ in range(2):  # the rerun retries the failed task and prints the table again
        done = cli(*args, "--out", str(out), "--parallel", "1", "--report")
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stdout + done.stderr, done.stderr
        assert "1 failed: counted as 1.0" in done.stdout, done.stdout
        assert f"[{DEFAULT_TIMING_PROTOCOL} protocol]" in done.stdout  # beside the table's figures
        assert "WARNING: 1 task(s) failed" in done.stderr and "does not pass" in done.stderr
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {(r["operator"], r["ok"], r["level"]) for r in records} == {
        (str(good.resolve()), True, 1),
        (str(bad.resolve()), False, 1),
    }
    assert (out / "report.html").is_file()
    done = cli(*args, "--out", str(out), "--json")  # the rows say their protocol too
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert rows and all(row["timing_protocol"] == DEFAULT_TIMING_PROTOCOL for row in rows), (
        done.stdout
    )
    done = cli("report", str(out))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def own_operators(tmp_path):
    """A folder of two own operators in the documented layout, named like no spec we ship: one
    right, one whose reference disagrees with its kernel."""
    folder = tmp_path / "mine"
    right, wrong = package_copy(folder / "right"), package_copy(folder / "wrong")
    reference = wrong / "reference.py"
    reference.write_text(reference.read_text().replace("x + y", "x - y"))
    return folder, right, wrong


def test_suite_import_honours_each_operators_own_spec_and_reference(tmp_path):
    folder, _, _ = own_operators(tmp_path)
    env = {**os.environ, "ASCEND_GYM_DATA": str(tmp_path / "data")}
    done = cli("suite", "import", str(folder), "--name", "mine", "--draws", "1", env=env)
    assert done.returncode == 0, done.stderr
    assert "1 of 2 operators pass" in done.stdout, done.stdout
    imported = tmp_path / "data" / "suites" / "mine" / "level1" / "add"
    assert "x + y" in (imported / "reference.py").read_text()
    done = cli("corpus", "run", str(folder), env=env)
    assert done.returncode == 0 and "| all cases correct | 1 (50 %) |" in done.stdout, done.stdout


def test_corpus_run_says_why_it_tried_nothing(tmp_path):
    folder, right, wrong = own_operators(tmp_path)
    (right / "op.toml").unlink()
    # Named like no spec of ours (the corpus ships one for `add`): the runner names an operator
    # found without a spec of its own by its kernel entry.
    kernel = right / "op_kernel" / "add.cpp"
    kernel.with_name("my_add.cpp").write_text(
        kernel.read_text().replace(" void add(", " void my_add(")
    )
    kernel.unlink()
    (wrong / "op.toml").write_text('name = "add"\n')
    done = cli("corpus", "run", str(folder))
    assert done.returncode == 1, done.stdout
    line = done.stderr.strip().splitlines()[-1]
    assert "tried none" in line and "no op.toml beside its op_host/" in line, done.stderr
    assert "wrong/add/op.toml: " in line and "Field required" in line, line
    done = cli("suite", "import", str(folder), "--name", "none", "--draws", "1")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "op.toml" in done.stderr and "nothing was registered" in done.stderr, done.stderr


def test_a_case_dtype_the_spec_does_not_declare_is_refused(tmp_path):
    spec = package_copy(tmp_path) / "op.toml"
    text = spec.read_text()
    spec.write_text(
        text.replace('"uneven_fp32"\ndtype = "float32"', '"uneven_fp32"\ndtype = "int32"')
    )
    assert spec.read_text() != text
    assert_usage_error(
        cli("eval", str(spec.parent)), "case uneven_fp32 gives x dtype int32", "float16, float32"
    )


def test_a_reference_importing_torch_runs_or_names_the_modules_it_may_import(tmp_path, daemon):
    root = package_copy(tmp_path)
    reference = root / "reference.py"
    reference.write_text("import torch\n" + reference.read_text())
    done = cli("eval", str(root), "--daemon", daemon)
    if done.returncode != 0:  # torch outside what a sandboxed reference may load
        assert "REJECTED" in done.stdout and "No module named" in done.stdout, done.stdout
        assert "a reference may import only numpy, numpy.ma" in done.stdout, done.stdout
        assert "math, ascend_core.suite.cube_ref" in done.stdout
    else:  # the daemon ran it: torch imported in its reference process
        assert done.stdout.startswith(f"{root}: OK"), done.stdout


def test_bench_with_a_ray_address_where_no_cluster_is_one_line_in_bounded_time(tmp_path):
    import socket
    import time

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    done = cli(
        "bench",
        "--ops",
        "level1/add",
        "--budget",
        "1",
        "--ray-address",
        f"127.0.0.1:{port}",
        "--out",
        str(tmp_path / "out"),
    )
    assert_usage_error(done, f"no Ray cluster at 127.0.0.1:{port}", "ray start --head")
    assert time.monotonic() - started < 60
