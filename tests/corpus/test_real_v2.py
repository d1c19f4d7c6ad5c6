"""ascend-real-v2: v1's operators with their provenance, naive marks and bench cases of the size
they serve; the materialiser times each bench case and reports those the launch head dominates;
reports and the summary by origin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from ascend_core import suite
from ascend_gym import report
from ascend_gym.cli import main
from ascend_gym.corpus import _spec
from ascend_gym.corpus.defined import REAL_CASE, load_definition, qualifications
from ascend_gym.records import SweepConfig, SweepRecord
from tests.corpus.test_defined_suite import _repo

ROOT = Path(__file__).resolve().parents[2]


def _spec_of(op) -> object:
    return _spec(tomllib.loads((ROOT / op.spec).read_text()))


def test_v2_holds_v1_s_operators_at_their_commits_with_a_provenance_each():
    v1 = {o.name: o for o in load_definition(suite.REAL_SUITE).ops}
    v2 = load_definition(suite.REAL_SUITE_V2).ops
    assert sorted(o.name for o in v2) == sorted(v1)
    for o in v2:
        kept = ("level", "repo", "commit", "path", "source", "spec")
        assert o.model_dump(include=set(kept)) == v1[o.name].model_dump(include=set(kept))
        assert o.provenance is not None
        vendor = o.repo.startswith("hicann/")
        assert (o.provenance == "production") == (vendor and not o.path.startswith("experimental/"))
        assert not o.naive or o.naive_reason
    assert not any(o.provenance for o in v1.values())  # v1's definition is untouched


def test_each_bench_case_names_the_spec_s_arguments_and_keeps_the_old_one_for_correctness():
    for o in load_definition(suite.REAL_SUITE_V2).ops:
        spec = _spec_of(o)
        adapted = o.adapt(spec)
        if o.bench is None:
            assert adapted == spec
            continue
        args = {a.name for a in (*spec.inputs, *spec.outputs)}
        assert set(o.bench.shapes) <= args and o.bench.source, o.name
        assert adapted.bench_case.name == REAL_CASE
        assert [c.name for c in adapted.cases] == [c.name for c in spec.cases] + [REAL_CASE]
        assert not adapted.case(spec.bench_case.name).bench


def _define(tmp_path: Path, monkeypatch, commit: str) -> None:
    """Two operators of our own: relu at a size the body dominates, neg at a tiny one (naive)."""
    text = (
        'name = "ours-v2"\ndescription = "test"\n'
        f'[[ops]]\nname = "relu"\nlevel = 1\nrepo = "us/ops"\ncommit = "{commit}"\n'
        'path = "cann_ops/relu"\nsource = "relu"\nspec = "ascend_gym/corpus/ops/relu/op.toml"\n'
        'provenance = "community"\n'
        '[ops.bench]\nsource = "LLaMA-7B hidden 4096, 512 tokens"\n'
        "shapes = { x = [512, 4096] }\n"
        f'[[ops]]\nname = "neg"\nlevel = 2\nrepo = "us/ops"\ncommit = "{commit}"\n'
        'path = "contest/Neg"\nsource = "neg"\nspec = "ascend_gym/corpus/ops/neg/op.toml"\n'
        'provenance = "competition"\nnaive = true\nnaive_reason = "test"\n'
        '[ops.bench]\nsource = "tiny"\nshapes = { x = [8, 16] }\n'
    )
    (tmp_path / "ours-v2.toml").write_text(text)
    monkeypatch.setitem(suite.DEFINED, "ours-v2", tmp_path / "ours-v2.toml")
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))


def test_materialise_times_each_bench_case_and_reports_the_head_dominated(
    tmp_path, monkeypatch, capsys
):
    src, head = _repo(tmp_path)
    _define(tmp_path, monkeypatch, head)
    assert main(["suite", "materialise", "ours-v2", "--src", str(src), "--draws", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 operators qualify" in out
    assert "1 qualified operators' bench cases are mostly launch head" in out
    assert out.rstrip().endswith(": neg")
    relu, neg = sorted(qualifications("ours-v2"), key=lambda q: q.name != "relu")
    assert relu.body_dominates and relu.latency_us > relu.head_us > 0
    assert not neg.body_dominates and neg.body_share is not None
    spec = suite.resolve("op://ours-v2/level1/relu").spec  # the written operator has the case
    assert spec.bench_case.name == REAL_CASE and spec.bench_case.shapes == {"x": [512, 4096]}

    groups = report.origins("ours-v2")
    assert groups == {"relu": "community", "neg": report.NAIVE}
    rows = {r[0]: r for r in report.summary_rows(qualifications("ours-v2"), groups)}
    assert rows["community"][1:3] == ["1", "1"] and rows["community"][6] == "1 of 1"
    assert rows["naive"][6] == "0 of 1" and rows["all"][1:3] == ["2", "2"]
    assert rows["naive"][4] == rows["naive"][5] == f"{neg.body_share:.1%}"  # one operator

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = ROOT / "benchmarks" / "real_suite_summary.py"
    # the script sees the definition only through the registry: define it there as the test does
    done = subprocess.run(
        [sys.executable, "-c", _SUMMARY.format(toml=tmp_path / "ours-v2.toml", script=script)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "ours-v2: 2 of 2 operators evaluated" in done.stdout
    assert "| naive | 1 | 1 |" in done.stdout and "- neg (naive)" in done.stdout


def test_resume_keeps_what_was_evaluated_and_redoes_what_is_named(tmp_path, monkeypatch, capsys):
    src, head = _repo(tmp_path)
    _define(tmp_path, monkeypatch, head)
    argv = ["suite", "materialise", "ours-v2", "--src", str(src), "--draws", "1"]
    assert main([*argv, "--resume"]) == 2  # nothing to resume
    assert "materialise it first" in capsys.readouterr().err
    assert main([*argv, "--redo", "neg"]) == 2  # --redo alone
    assert main(argv) == 0
    path = suite.data_dir() / "ours-v2" / "qualification.json"
    # as if interrupted after relu (its latency changed: it marks what was not evaluated again)
    (relu,) = [q for q in json.loads(path.read_text()) if q["name"] == "relu"]
    path.write_text(json.dumps([relu | {"latency_us": 1000.0}]))
    assert main([*argv, "--resume"]) == 0
    assert "2 of 2 operators qualify" in capsys.readouterr().out
    by_name = {q.name: q for q in qualifications("ours-v2")}
    assert by_name["relu"].latency_us == 1000.0 and by_name["neg"].latency_us < 100
    assert suite.resolve("op://ours-v2/level1/relu").spec.bench_case.name == REAL_CASE
    assert main([*argv, "--resume", "--redo", "relu"]) == 0
    assert {q.name: q for q in qualifications("ours-v2")}["relu"].latency_us < 1000.0


_SUMMARY = """
import runpy, sys
from ascend_core import suite
suite.DEFINED["ours-v2"] = __import__("pathlib").Path("{toml}")
sys.argv = ["real_suite_summary.py", "ours-v2"]
runpy.run_path("{script}", run_name="__main__")
"""


def test_the_summary_of_an_unmaterialised_suite_is_one_line_and_status_2(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ASCEND_GYM_DATA": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "real_suite_summary.py")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 2 and "materialise it first" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_results_by_origin_split_each_policy_s_figures_by_group():
    def task(op: str, baseline: float, best: float) -> SweepRecord:
        return SweepRecord.model_validate(
            {
                "policy": "p",
                "operator": f"op://s/level1/{op}",
                "seed": 0,
                "budget": 4,
                "ok": True,
                "baseline_us": baseline,
                "best_us": best,
                "baseline_head_us": 2.0,
                "best_head_us": 2.0,
            }  # fmt: skip
        )

    records = [task("a", 100.0, 50.0), task("b", 10.0, 10.0), task("c", 80.0, 20.0)]
    config = SweepConfig(ops=[r.operator for r in records], policies=["p"], budget=4, seeds=1)
    groups = {"a": "production", "b": "production", "c": report.NAIVE}
    rows = report.origin_table(config, records, groups)
    assert [r[:3] for r in rows] == [["p", "naive", "1"], ["p", "production", "2"]]
    assert rows[0][4] == "4.000" and rows[0][5] == f"{78 / 18:.3f}"  # end to end, body
    assert rows[1][4] == f"{2**0.5:.3f}" and rows[1][7] == "0.50"
    assert len(report.ORIGIN_HEAD) == len(rows[0])


def test_a_sweep_of_a_defined_suite_is_reported_by_origin():
    def task(operator: str) -> SweepRecord:
        return SweepRecord.model_validate(
            {"policy": "p", "operator": operator, "seed": 0, "budget": 4, "ok": True}
        )

    v2 = [task("op://ascend-real-v2/level1/abs"), task("op://ascend-real-v2/level1/cross")]
    groups = report.sweep_origins(v2)
    assert groups["abs"] == "community" and groups["cross"] == report.NAIVE
    # Operators of another suite, or of several, have no origins to report by.
    assert report.sweep_origins([task("op://ascend-ops-v1/level1/add")]) == {}
    assert report.sweep_origins([*v2, task("op://ascend-ops-v1/level1/add")]) == {}
