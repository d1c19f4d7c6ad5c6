"""Suites defined in the repository over public operators: `ascend-gym suite materialise`.

A defined suite (`ascend_core/suite/<name>.toml`) names, for each operator, its repository, the
commit it is pinned at, its directory there, the source name the corpus runner finds in it and
its level. The spec, the numpy reference and the bench case are ours (`ops/<spec>/`); the
sources are third-party and never enter the repository: `materialise` reads them from the
user's checkouts (`SRC/<owner>+<repo>`, as /work/corpus_src holds them), evaluates every case
with the simulator, and writes the operators that pass every case (only those qualify; the
published operator is the baseline) under the suite's data directory, level by level, where the
suite registry finds them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import BaseModel, Field

from ascend_core import suite
from ascend_gym.corpus import OpSource, build_package, spec_for
from ascend_gym.corpus.importer import write_operator
from ascend_gym.corpus.runner import QUALIFY_DRAWS, evaluate

COMMIT_MISMATCH = "COMMIT_MISMATCH"  # the checkout is not at the pinned commit: not evaluated
MISSING = "MISSING"  # no such directory in the checkout


class DefinedOp(BaseModel):
    name: str  # the operator's name in the suite
    level: int = Field(ge=1, le=3)
    repo: str  # owner/name on GitHub
    commit: str  # the pinned commit
    path: str  # the operator's directory in the repository
    source: str  # the source name the corpus runner builds (op_kernel/<source>.cpp)
    spec: str  # our spec: ascend_gym/corpus/ops/<spec>/op.toml (a variant as <op>.<variant>)


class SuiteDefinition(BaseModel):
    name: str
    description: str
    ops: list[DefinedOp]


class Qualification(BaseModel):
    """One operator's materialisation: the evaluation's status (OK qualifies)."""

    name: str
    level: int
    origin: str  # repo@commit:path
    status: str
    message: str = ""

    @property
    def qualified(self) -> bool:
        return self.status == "OK"


def load_definition(name: str) -> SuiteDefinition:
    path = suite.definition_path(name)
    if path is None:
        raise KeyError(f"no defined suite {name!r}; defined: {sorted(suite.DEFINED)}")
    return SuiteDefinition.model_validate(tomllib.loads(path.read_text()))


def checkout(src: Path, repo: str) -> Path:
    """Where the checkout of `repo` (owner/name) lies under `src`: `<owner>+<name>`."""
    return src / repo.replace("/", "+")


def head_commit(repo_dir: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo_dir), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() if done.returncode == 0 else ""


def _one(
    op: DefinedOp, src: Path, soc: str, any_commit: bool, draws: int
) -> tuple[Qualification, object]:
    origin = f"{op.repo}@{op.commit[:12]}:{op.path}"
    repo_dir = checkout(src, op.repo)
    root = repo_dir / op.path
    if not (root / "op_kernel").is_dir():
        return Qualification(
            name=op.name, level=op.level, origin=origin, status=MISSING, message=f"no {root}"
        ), None
    head = head_commit(repo_dir)
    if head != op.commit and not any_commit:
        return Qualification(
            name=op.name,
            level=op.level,
            origin=origin,
            status=COMMIT_MISMATCH,
            message=f"{repo_dir} is at {head or 'no git commit'}; pinned {op.commit}",
        ), None
    source = OpSource(op.source, root, f"{repo_dir.name}/{op.path}")
    outcome = evaluate(source, soc, draws=draws)
    return Qualification(
        name=op.name, level=op.level, origin=origin, status=outcome.status, message=outcome.message
    ), source


def materialise(
    name: str,
    src: Path,
    jobs: int = 1,
    soc: str = "Ascend910B4",
    any_commit: bool = False,
    progress: Callable[[Qualification], None] | None = None,
    draws: int = QUALIFY_DRAWS,
) -> list[Qualification]:
    """Evaluate every operator of the defined suite from the checkouts under `src` and write
    those passing every case on `draws` input draws to `suite.data_dir()/<name>/level<N>/<op>`,
    with `qualification.json` (every operator's outcome) beside them."""
    definition = load_definition(name)

    def one(op: DefinedOp):
        result = _one(op, src, soc, any_commit, draws)
        if progress:
            progress(result[0])
        return op, *result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, definition.ops))
    root = suite.data_dir() / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for op, q, source in results:
        if q.qualified:
            package = build_package(source, spec_for(source))
            package = package.model_copy(
                update={"spec": package.spec.model_copy(update={"level": op.level})}
            )
            write_operator(package, root / f"level{op.level}" / op.name, f"{name}: {q.origin}")
    outcomes = [q for _, q, _ in results]
    (root / "qualification.json").write_text(
        json.dumps([q.model_dump() for q in outcomes], indent=1)
    )
    return outcomes
