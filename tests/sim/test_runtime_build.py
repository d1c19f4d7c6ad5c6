"""The simulator runtime's build steps (build.build_step) against a compiler killed midway: g++'s own
`-wrapper` runs cc1plus through a script that SIGKILLs it, as the OOM killer would."""

from __future__ import annotations

from pathlib import Path

import pytest

from npu_daemon import evaluation
from npu_daemon.backends.common import build

# Kills cc1plus on the first `kills` runs (counted in `runs`), then lets it compile.
WRAPPER = """#!/bin/sh
case "$1" in *cc1plus)
  echo run >> {runs}
  if [ "$(wc -l < {runs})" -le {kills} ]; then kill -9 $$; fi;;
esac
exec "$@"
"""


def unit(tmp_path: Path, kills: int, source: str) -> tuple[list[str], Path, Path]:
    """A g++ compile of `source` whose cc1plus is killed `kills` times: (command, object, runs)."""
    runs, wrapper = tmp_path / "runs", tmp_path / "wrapper.sh"
    runs.touch()
    wrapper.write_text(WRAPPER.format(runs=runs, kills=kills))
    wrapper.chmod(0o755)
    (tmp_path / "unit.cpp").write_text(source)
    obj = tmp_path / "unit.o"
    return [build.CXX, "-wrapper", str(wrapper), "-c", "unit.cpp", "-o", str(obj)], obj, runs


def runs_of(runs: Path) -> int:
    return len(runs.read_text().splitlines())


def test_a_killed_compiler_is_run_again(tmp_path: Path) -> None:
    cmd, obj, runs = unit(tmp_path, kills=1, source="int f() { return 1; }\n")
    build.build_step(cmd, tmp_path, "unit")
    assert obj.is_file() and runs_of(runs) == 2


def test_an_error_of_the_sources_is_reported_when_said_twice(tmp_path: Path) -> None:
    cmd, obj, runs = unit(tmp_path, kills=0, source="int f() { return undeclared; }\n")
    with pytest.raises(build.RuntimeBuildError, match="undeclared. was not declared"):
        build.build_step(cmd, tmp_path, "unit")
    assert runs_of(runs) == 2 and not obj.exists()


def test_a_compiler_always_killed_fails_the_build_saying_so(tmp_path: Path) -> None:
    cmd, _, runs = unit(tmp_path, kills=build.STEP_ATTEMPTS, source="int f() { return 1; }\n")
    with pytest.raises(build.RuntimeBuildError) as failed:
        build.build_step(cmd, tmp_path, "unit")
    assert runs_of(runs) == build.STEP_ATTEMPTS
    said = evaluation.daemon_fault(failed.value)
    assert f"failed {build.STEP_ATTEMPTS} times (its compiler killed)" in said
    assert "Killed signal terminated program" in said
