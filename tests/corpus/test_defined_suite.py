"""Defined suites: ascend-real-v1's definition, and `suite materialise` on a definition of our own
over a git repository of our own operators (tests/agents/real_layouts), pinned at its commit."""

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_gym.cli import main
from ascend_gym.corpus import build_package, find_ops, spec_for
from ascend_gym.corpus.defined import COMMIT_MISMATCH, load_definition

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ROOT / "tests" / "agents" / "real_layouts"


def test_ascend_real_v1_names_each_operator_s_origin_spec_and_level():
    definition = load_definition(suite.REAL_SUITE)
    ops = definition.ops
    assert len(ops) >= 127 and len({o.name for o in ops}) == len(ops)
    assert {o.level for o in ops} == {1, 2, 3}
    for o in ops:
        assert len(o.commit) == 40 and o.repo.count("/") == 1
        spec = tomllib.loads((ROOT / o.spec).read_text())
        assert (ROOT / o.spec).parent.joinpath("reference.py").is_file()
        assert any(c.get("bench") for c in spec["cases"]), o.name  # a bench case


def test_the_docs_clone_every_pinned_checkout():
    """docs/real_suite.md's clone loop names each repository of the definition at its commit."""
    text = (ROOT / "docs" / "real_suite.md").read_text()
    listed = text.split("<<'PINNED'\n", 1)[1].split("\nPINNED\n", 1)[0].splitlines()
    pinned = {(o.repo, o.commit) for o in load_definition(suite.REAL_SUITE).ops}
    assert {tuple(line.split()) for line in listed} == pinned


def _repo(tmp_path: Path) -> tuple[Path, str]:
    src = tmp_path / "src"
    repo = src / "us+ops"
    shutil.copytree(LAYOUTS, repo)
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
        + ["commit", "-qm", "ours"],
        check=True,
    )
    head = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return src, head


def _define(tmp_path: Path, monkeypatch, commit: str) -> None:
    ops = [("relu", 1, "cann_ops/relu", "relu"), ("neg", 2, "contest/Neg", "neg")]
    text = 'name = "ours-v1"\ndescription = "test"\n' + "".join(
        f'[[ops]]\nname = "{n}"\nlevel = {lv}\nrepo = "us/ops"\ncommit = "{commit}"\n'
        f'path = "{p}"\nsource = "{s}"\nspec = "ascend_gym/corpus/ops/{s}/op.toml"\n'
        for n, lv, p, s in ops
    )
    (tmp_path / "ours-v1.toml").write_text(text)
    monkeypatch.setitem(suite.DEFINED, "ours-v1", tmp_path / "ours-v1.toml")
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))


def test_materialise_writes_the_passing_operators_by_level(tmp_path, monkeypatch, capsys):
    src, head = _repo(tmp_path)
    _define(tmp_path, monkeypatch, head)
    with pytest.raises(Exception, match="not materialised"):
        suite.op_uris("ours-v1")
    assert main(["suite", "materialise", "ours-v1", "--src", str(src)]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 operators qualify" in out and "level1 1, level2 1, level3 0" in out
    assert suite.op_uris("ours-v1") == ["op://ours-v1/level1/relu", "op://ours-v1/level2/neg"]
    assert suite.expand("ours-v1") == suite.op_uris("ours-v1")
    relu = suite.resolve("op://ours-v1/level1/relu")
    assert relu.spec.level == 1 and "op_kernel/relu_impl.h" in relu.files
    root = suite.data_dir() / "ours-v1"
    assert "us/ops@" in (root / "level1" / "relu" / "op.toml").read_text().splitlines()[0]
    assert [q["status"] for q in json.loads((root / "qualification.json").read_text())] == [
        "OK",
        "OK",
    ]
    assert main(["suite", "list", "--suite", "ours-v1"]) == 0
    assert "op://ours-v1/level2/neg" in capsys.readouterr().out


def test_materialise_refuses_checkouts_at_another_commit(tmp_path, monkeypatch, capsys):
    src, _ = _repo(tmp_path)
    _define(tmp_path, monkeypatch, "0" * 40)
    assert main(["suite", "materialise", "ours-v1", "--src", str(src)]) == 0
    out = capsys.readouterr().out
    assert out.count(COMMIT_MISMATCH) >= 2 and "0 of 2 operators qualify" in out
    assert main(["suite", "materialise", "nonesuch", "--src", str(src)]) == 2


def test_suite_list_shows_an_operator_without_inputs(tmp_path, monkeypatch, capsys):
    """A creation operator (log_space: attrs in, a tensor out) lists its output's bench shape."""
    from ascend_gym.corpus import load_spec
    from ascend_gym.corpus.importer import write_operator

    relu = next(
        build_package(s, spec_for(s)) for s in find_ops(LAYOUTS) if s.op == "relu"
    )  # any sources: list reads the spec
    created = relu.model_copy(update={"spec": load_spec("log_space")})
    assert not created.spec.inputs
    write_operator(created, tmp_path / "level1" / "log_space", "test")
    suite.register_suite("creation-only", tmp_path)
    assert main(["suite", "list", "--suite", "creation-only"]) == 0
    bench = created.spec.bench_case
    shape = "x".join(map(str, created.spec.arg_shape(bench, created.spec.outputs[0].name)))
    assert f"{shape} {bench.dtype}" in capsys.readouterr().out


def test_a_real_operator_is_rewound_from_its_own_code(tmp_path, monkeypatch, capsys):
    """bank build on a materialised real operator (no expert version beside it): the walk starts
    from the published code and its probes add what the knowledge can write."""
    from agents.ascendoptimizer.offline import OfflineProposer
    from agents.ascendoptimizer.rewind import RewindConfig, build_bank
    from ascend_gym.client import LocalDaemon

    src, head = _repo(tmp_path)
    _define(tmp_path, monkeypatch, head)
    assert main(["suite", "materialise", "ours-v1", "--src", str(src)]) == 0
    uri = "op://ours-v1/level2/neg"  # its Muls can be devectorised, its whole-tile call chunked
    assert not suite.has_expert(uri)
    with LocalDaemon(workers=2) as d:
        bank, stats = build_bank(
            [uri], d.address, OfflineProposer, RewindConfig(max_tried_per_expert=2),
            tmp_path / "bank", embedder="tfidf", parallel=1,
        )  # fmt: skip
    records = [json.loads(line) for line in open(tmp_path / "bank" / "rewind.jsonl")]
    start = next(r for r in records if r["kind"] == "rewind_start")
    assert (start["operator"], start["status"]) == (uri, "OK")
    assert stats.experts == 1 and stats.tried >= 1
    steps = [r for r in records if r["kind"] == "rewind_step"]
    assert len(steps) == stats.tried and all(r["operator"] == uri for r in steps)
    assert all(e.operator == uri and e.code_diff.startswith("---") for e in bank.experiences)
    # Its whole-tile Muls issued in short chunks is slower: the pair is kept, with its own code.
    assert any("Muls(yLocal, xLocal, -1.0f, n);" in e.code_diff for e in bank.experiences)
