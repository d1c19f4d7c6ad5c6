"""`ascend-gym cann-bench run|score` and `eval` on a set written in cann-bench's layout: a kernel
generated from the spec alone, a submission in the aclnn layout read as it is, every case timed
on the simulator and scored by cann-bench's formula against the set's metadata."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ascend_core import suite
from ascend_gym.cannbench.hap import case_score

from .conftest import METADATA, aclnn_project

CLI = [sys.executable, "-m", "ascend_gym.cli"]


def test_run_generates_scores_and_tables_a_set(bench_set, tmp_path):
    out = tmp_path / "out"
    done = subprocess.run(
        [*CLI, "cann-bench", "run", str(bench_set), "--name", "cb-run", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Simulated on Ascend910B2" in done.stdout  # metadata/910b2.json's part
    assert "level1/scaled_add: correct, 2/2 cases" in done.stdout
    assert "level2/row_sum: no candidate, 0/3 cases" in done.stdout
    assert "outside the offline templates" in done.stdout
    assert "| level1 | 1 | 1.00 | 1.00 |" in done.stdout
    assert "| level2 | 1 | 0.00 | 0.00 | 0.000 | 0.0 | 1.000 |" in done.stdout
    assert "- level3/fp4_only: " in done.stdout  # the task not imported, listed
    report = json.loads((out / "report.json").read_text())
    assert report["simulated"] is True and report["soc"] == "Ascend910B2"
    (add,) = [o for o in report["operators"] if o["op"] == "scaled_add"]
    floors = METADATA["level1"]["scaled_add"]
    for case in add["cases"]:
        floor = floors[case["case_id"]]
        want = case_score(case["latency_us"], floor["baseline_perf_us"], floor["t_hw_us"])
        assert case["hap"] == pytest.approx(want) and case["status"] == "OK"
    # the correct candidate is a suite the env and the policies start from
    baseline = suite.resolve("op://cb-run-baselines/level1/scaled_add")
    assert baseline.spec.reference_kind == "torch" and "golden.py" in baseline.files
    assert any(p.startswith("op_kernel/") for p in baseline.files)


def test_an_aclnn_layout_submission_is_evaluated_as_it_is(bench_set, tmp_path):
    """The fixture's kernel computes x1 + x2: right for case 1 (alpha 1), wrong for case 2."""
    subprocess.run(
        [*CLI, "cann-bench", "import", str(bench_set), "--name", "cb-sub"], check=True, timeout=300
    )
    op_dir = aclnn_project(tmp_path)
    score = subprocess.run(
        [*CLI, "cann-bench", "score", str(op_dir), "--suite", "cb-sub"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert score.returncode == 1, score.stdout + score.stderr  # not correct on every case
    assert "| case_1 | 1 | OK |" in score.stdout
    assert "| case_2 | 2 | WRONG_ANSWER |" in score.stdout
    spec = suite.data_dir() / "cb-sub" / "level1" / "scaled_add" / "op.toml"
    evaluated = subprocess.run(
        [*CLI, "eval", str(op_dir), "--spec", str(spec), "--case", "case_1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert evaluated.returncode == 0, evaluated.stdout + evaluated.stderr
    assert "OK" in evaluated.stdout and "case case_1: pass" in evaluated.stdout
    direct = tmp_path / "direct" / "scaled_add"
    (direct / "op_kernel").mkdir(parents=True)  # neither op_host/ nor a direct launch's op_plugin/
    refused = subprocess.run(
        [*CLI, "eval", str(direct), "--spec", str(spec)], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "direct-launch" in refused.stderr
