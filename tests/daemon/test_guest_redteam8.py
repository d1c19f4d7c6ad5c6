"""An eighth red team of the guest engine (issue 50, docs/trust_boundary.md, "An eighth red
team"): what the seventh round left open and new faces, each asserting the honest outcome against
a real `sim-guest` daemon, or the trusted code itself where the attack is on its own step.

Safe if containment fails: every process the tests start has bounded memory and time, and
connections go to 127.0.0.1 only.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from ascend_gym.corpus import find_ops, runner

CORPUS = Path(__file__).parents[1] / "corpus"
SECRET = "outside_secret_token"  # a compile error quotes it whole


# ---- the corpus runner: a hostile checkout's links ----------------------------------------------
def hostile_checkout(tmp_path: Path, how: str) -> Path:
    """tests/corpus/project with its own spec, whose kernel reaches `outside/secret.h` (a file
    the user can read, outside the checkout) by `how`: a link in the operator's op_kernel/, a
    link in an include root of its build files, or a relative include that climbs out."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    shutil.copytree(CORPUS / "project", repo, symlinks=True)
    outside.mkdir()
    (outside / "secret.h").write_text(f"{SECRET}\n")
    op = repo / "vector" / "offset_scale"
    specs = (CORPUS / "layout_specs.toml").read_text()
    (op / "op.toml").write_text(specs.partition("[offset_scale]\n")[2].partition("\n[")[0])
    assert tomllib.loads((op / "op.toml").read_text())["name"] == "offset_scale"
    include = {
        "op_kernel link": "leak.h",
        "include root link": "far.h",
        "relative climb": "../../../../outside/secret.h",
    }[how]
    if how == "op_kernel link":
        (op / "op_kernel" / "leak.h").symlink_to(outside / "secret.h")
    elif how == "include root link":
        (repo / "common" / "include" / "far.h").symlink_to(outside / "secret.h")
    kernel = op / "op_kernel" / "offset_scale.cpp"
    kernel.write_text(f'#include "{include}"\n{kernel.read_text()}')
    return repo


@pytest.mark.parametrize("how", ["op_kernel link", "include root link", "relative climb"])
def test_a_checkouts_links_put_no_outside_file_into_a_package(tmp_path: Path, how: str):
    # The corpus runner read a checkout's files through links and relative includes wherever
    # they led: the outside file's text went into the package, the compile quoted it back in the
    # outcome's message (a hostile checkout's way to a file its user can read). Now a file whose
    # real path leaves the checkout is refused before anything is packaged or sent.
    repo = hostile_checkout(tmp_path, how)
    source = next(s for s in find_ops(repo) if s.op == "offset_scale")
    outcome = runner.evaluate(source, compile_only=True)
    assert SECRET not in outcome.message
    assert outcome.status == "REJECTED", (outcome.status, outcome.message[:300])
    assert "outside the checkout" in outcome.message
