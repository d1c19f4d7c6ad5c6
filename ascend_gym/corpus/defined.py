"""Suites defined in the repository over public operators: `ascend-gym suite materialise`.

A defined suite (`ascend_core/suite/<name>.toml`) names, for each operator, its repository, the
commit it is pinned at, its directory there, the source name the corpus runner finds in it and
its level. The spec, the numpy reference and the bench case are ours (`ops/<spec>/`); the
sources are third-party and never enter the repository: `materialise` reads them from the
user's checkouts (`SRC/<owner>+<repo>`, as /work/corpus_src holds them), evaluates every case
with the simulator, and writes the operators that pass every case (only those qualify; the
published operator is the baseline) under the suite's data directory, level by level, where the
suite registry finds them.

A definition may also say where each operator comes from (`provenance`), mark a baseline that is
slow by design (`naive`: a single-core sample on a many-core part, every core doing all the
work), and give it a bench case of the size it serves (`[ops.bench]`: shapes, dtype, attrs and
where they come from). That case replaces the spec's bench case, which stays as a correctness
case; the materialiser times it and reports each operator whose modelled launch head, not its
kernel body, takes most of the time (`body_dominates`); it times every bench case so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
import tomllib
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from ascend_core import suite
from ascend_core.package import OperatorSpec
from ascend_gym.corpus import OpSource, build_package, spec_for
from ascend_gym.corpus.importer import write_operator
from ascend_gym.corpus.runner import QUALIFY_DRAWS, evaluate

COMMIT_MISMATCH = "COMMIT_MISMATCH"  # the checkout is not at the pinned commit: not evaluated
MISSING = "MISSING"  # no such directory in the checkout
# production: a vendor's shipped tree (hicann outside `experimental/`); community: contributed
# kernels (`experimental/`, community repositories); sample: tutorials, samples and homework;
# competition: contest entries.
Provenance = Literal["production", "community", "sample", "competition"]
# The bench case's kernel body must be more than this share of its simulated time.
BODY_SHARE = 0.5
REAL_CASE = "real"  # the name of a definition's own bench case
QUALIFICATION = "qualification.json"


class BenchShape(BaseModel):
    """A bench case of the size the operator serves, and where that size comes from."""

    shapes: dict[str, list[int]]
    dtype: str | None = None  # the spec's bench dtype when not given
    attrs: dict[str, object] = {}  # over the spec's bench attrs
    values: dict[str, list[float | str]] = {}  # over its explicit input values (a shape input's)
    source: str  # the model, test or example the shape is taken from


class DefinedOp(BaseModel):
    name: str  # the operator's name in the suite
    level: int = Field(ge=1, le=3)
    repo: str  # owner/name on GitHub
    commit: str  # the pinned commit
    path: str  # the operator's directory in the repository
    source: str  # the source name the corpus runner builds (op_kernel/<source>.cpp)
    spec: str  # our spec: ascend_gym/corpus/ops/<spec>/op.toml (a variant as <op>.<variant>)
    provenance: Provenance | None = None
    naive: bool = False  # a baseline slow by design, reported apart
    naive_reason: str = ""
    bench: BenchShape | None = None

    def adapt(self, spec: OperatorSpec) -> OperatorSpec:
        """The spec with this definition's bench case, the spec's own kept as a correctness case."""
        if self.bench is None:
            return spec
        old = spec.bench_case
        real = old.model_copy(
            update={
                "name": REAL_CASE,
                "shapes": self.bench.shapes,
                "dtype": self.bench.dtype or old.dtype,
                "attrs": old.attrs | self.bench.attrs,
                "values": old.values | self.bench.values,
            }
        )
        cases = [c.model_copy(update={"bench": False}) for c in spec.cases]
        return OperatorSpec.model_validate(
            spec.model_dump() | {"cases": [c.model_dump() for c in [*cases, real]]}
        )


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
    latency_us: float | None = None  # the bench case's, simulated, when timed
    head_us: float | None = None  # the model's launch head in it

    @property
    def qualified(self) -> bool:
        return self.status == "OK"

    @property
    def body_share(self) -> float | None:
        """The kernel body's share of the bench case's time (None when not timed)."""
        if self.latency_us is None or self.head_us is None or self.latency_us <= 0:
            return None
        return (self.latency_us - self.head_us) / self.latency_us

    @property
    def body_dominates(self) -> bool:
        return (self.body_share or 0.0) > BODY_SHARE


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
    op: DefinedOp, src: Path, soc: str, any_commit: bool, draws: int, kept: Qualification | None
) -> tuple[Qualification, object]:
    """The operator's qualification: `kept` (a previous one of the same origin) or evaluated."""
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
    if kept is not None and kept.origin == origin:
        return kept, source
    outcome = evaluate(source, soc, draws=draws, adapt=op.adapt, timed=True)
    measured = outcome.model_dump(include={"status", "message", "latency_us", "head_us"})
    return Qualification(name=op.name, level=op.level, origin=origin, **measured), source


def materialise(
    name: str,
    src: Path,
    jobs: int = 1,
    soc: str = "Ascend910B4",
    any_commit: bool = False,
    progress: Callable[[Qualification], None] | None = None,
    draws: int = QUALIFY_DRAWS,
    resume: bool = False,
    redo: Collection[str] = (),
) -> list[Qualification]:
    """Evaluate every operator of the defined suite from the checkouts under `src` and write
    those passing every case on `draws` input draws to `suite.data_dir()/<name>/level<N>/<op>`,
    with `qualification.json` (every operator's outcome and its bench case's simulated time,
    rewritten as each operator is done) beside them. `resume`: keep the last materialisation's
    outcomes (an interrupted one's too) of the operators at the same origin, but those named in
    `redo`, and evaluate the others (at real sizes a whole run takes an hour)."""
    definition = load_definition(name)
    previous = {q.name: q for q in qualifications(name)} if resume else {}
    root = suite.data_dir() / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    done: list[Qualification] = []
    lock = threading.Lock()

    def one(op: DefinedOp):
        kept = None if op.name in redo else previous.get(op.name)
        result = _one(op, src, soc, any_commit, draws, kept)
        with lock:  # the outcomes so far, readable while a long run goes on
            done.append(result[0])
            _write_qualification(root, done)
        if progress:
            progress(result[0])
        return op, *result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, definition.ops))
    for op, q, source in results:
        if q.qualified:
            package = build_package(source, op.adapt(spec_for(source)))
            package = package.model_copy(
                update={"spec": package.spec.model_copy(update={"level": op.level})}
            )
            write_operator(package, root / f"level{op.level}" / op.name, f"{name}: {q.origin}")
    outcomes = [q for _, q, _ in results]
    _write_qualification(root, outcomes)
    return outcomes


def _write_qualification(root: Path, outcomes: list[Qualification]) -> None:
    (root / QUALIFICATION).write_text(json.dumps([q.model_dump() for q in outcomes], indent=1))


def qualifications(name: str) -> list[Qualification]:
    """The outcomes of a defined suite's last materialisation (so far, while one runs)."""
    path = suite.data_dir() / name / QUALIFICATION
    if not path.is_file():
        raise KeyError(f"suite {name!r} has no {QUALIFICATION}: materialise it first")
    return [Qualification.model_validate(q) for q in json.loads(path.read_text())]
