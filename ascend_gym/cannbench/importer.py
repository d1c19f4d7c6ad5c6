"""`ascend-gym suite import --format cann-bench DIR`: a cann-bench checkout's tasks as a suite.

Each task becomes a spec-only suite operator under the user's data directory (`op.toml` and the
task's `golden.py` as its torch reference, under `level<N>/<op>`), to be generated (`ascend-gym
generate`) or evaluated with a submission. The suite root's `cann_bench.json` (a `Manifest`)
keeps what the score needs: each operator's task and case ids, the tasks left out and why, and
the per-hardware baselines and floors of every `metadata/<hw>.json` found above the tasks.
Nothing of cann-bench enters the repository: the importer reads the checkout the user points at.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pydantic
from pydantic import BaseModel

from ascend_core import suite
from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.cannbench.tasks import (
    Task,
    Unimportable,
    find_tasks,
    read_task,
    with_declared_outputs,
    with_outputs,
)
from ascend_gym.corpus.importer import write_operator

MANIFEST = "cann_bench.json"
# The golden's output-shape probe runs every case of a task in one sandbox, within this many CPU
# seconds per case (a golden that must run on real inputs, such as an attention with 20 cases,
# takes 10 to 25 s a case on one thread): CPU, so an import does not depend on the machine's
# load; its wall time may be PROBE_WALL_FACTOR times that on a shared machine.
PROBE_CASE_S = 30.0
PROBE_WALL_FACTOR = 4


class Floor(BaseModel):
    """One case's entry of metadata/<hw>.json: its measured baseline and hardware floor T_HW."""

    baseline_perf_us: float | None = None
    t_hw_us: float | None = None


class Manifest(BaseModel):
    source: str  # the directory imported
    tasks: list[Task]
    failed: dict[str, str] = {}  # task path -> why it was not imported
    metadata: dict[str, dict[str, dict[str, Floor]]] = {}  # hw -> operator -> case_id -> floor

    def task(self, op: str) -> Task | None:
        return next((t for t in self.tasks if t.name == op), None)


def load_manifest(name: str) -> Manifest:
    """The manifest of an imported cann-bench suite (KeyError if `name` is not one)."""
    path = suite.roots().get(name, suite.data_dir() / name) / MANIFEST
    if not path.is_file():
        raise KeyError(f"{name} is not an imported cann-bench suite (no {path})")
    return Manifest.model_validate_json(path.read_text())


def probe(spec: dict, golden: str) -> tuple[OperatorPackage, dict[str, str]]:
    """The task's package once its golden has said the outputs' shapes and dtypes (sandboxed),
    and the cases it raised on (case name -> its error), left out of the package; Unimportable
    if it answers none."""
    from npu_daemon import references

    draft = OperatorPackage(
        spec=OperatorSpec.model_validate(with_declared_outputs(spec)), files={"golden.py": golden}
    )
    try:
        budget = PROBE_CASE_S * len(draft.spec.cases)
        signatures, given = references.output_signatures(draft, budget, PROBE_WALL_FACTOR * budget)
    except references.ReferenceFailed as e:
        raise Unimportable(str(e)) from None
    failed = {c: why for c, why in signatures.items() if isinstance(why, str)}
    if len(failed) == len(signatures):
        raise Unimportable(f"the golden fails on every case: {next(iter(failed.values()), '')}")
    kept = [c for c in spec["cases"] if c["name"] not in failed]
    for case in kept:  # drawn as declared, handed to the kernel as its get_input answers
        for name, shape in given.get(case["name"], {}).items():
            case.setdefault("drawn", {})[name] = case["shapes"][name]
            case["shapes"][name] = shape
    if not any(c.get("bench") for c in kept):  # the largest case was one of them
        max(kept, key=lambda c: sum(math.prod(s) for s in c["shapes"].values()))["bench"] = True
    answered = {c: s for c, s in signatures.items() if not isinstance(s, str)}
    spec = {**spec, "cases": kept}
    return draft.model_copy(update={"spec": with_outputs(spec, answered)}), failed


def why(e: Exception) -> str:
    """One line: a refused spec names its first invalid field, anything else its first line."""
    if isinstance(e, pydantic.ValidationError) and (errors := e.errors()):
        where = ".".join(str(part) for part in errors[0]["loc"])
        return f"spec{' ' + where if where else ''}: {errors[0]['msg']}"[:300]
    return str(e).splitlines()[0][:300] if str(e) else type(e).__name__


def import_tasks(
    src: Path, name: str, progress: Callable[[str, str], None] | None = None
) -> Manifest:
    """Import every task under `src` as suite `name` (replacing an earlier import of it)."""
    root = suite.data_dir() / name
    shutil.rmtree(root, ignore_errors=True)
    tasks, failed, taken = [], {}, set()
    for task_dir in find_tasks(src):
        rel = task_dir.relative_to(src).as_posix()
        try:
            spec, task = read_task(task_dir, src)
            pkg, golden_failed = probe(spec, (task_dir / "golden.py").read_text())
            task = _without(task, golden_failed)
        except (Unimportable, ValueError, OSError) as e:  # ValueError: a spec pydantic refused
            failed[rel] = why(e)
            if progress:
                progress("FAILED", f"{rel}: {failed[rel]}")
            continue
        op, k = task.name, 2
        while op in taken:  # the same task name in two sets
            op, k = f"{task.name}_{k}", k + 1
        taken.add(op)
        if op != task.name:
            task = task.model_copy(update={"name": op})
            pkg = pkg.model_copy(
                update={"spec": pkg.spec.model_copy(update={"name": op, "kernel": op})}
            )
        write_operator(pkg, root / f"level{task.level}" / op, f"imported from cann-bench {rel}")
        tasks.append(task)
        if progress:
            progress("IMPORTED", f"{rel} -> op://{name}/level{task.level}/{op}")
    manifest = Manifest(
        source=str(src.resolve()), tasks=tasks, failed=failed, metadata=_metadata(src, tasks)
    )
    root.mkdir(parents=True, exist_ok=True)
    (root / MANIFEST).write_text(manifest.model_dump_json(indent=1))
    return manifest


def _without(task: Task, failed: dict[str, str]) -> Task:
    """The task less the cases its golden raised on, each left out with the golden's error."""
    why = {task.case_ids[c]: f"its golden fails: {e}" for c, e in failed.items()}
    ids = {c: i for c, i in task.case_ids.items() if c not in failed}
    return task.model_copy(update={"case_ids": ids, "skipped": {**task.skipped, **why}})


def _metadata(src: Path, tasks: list[Task]) -> dict[str, dict[str, dict[str, Floor]]]:
    """Per hardware, each imported task's case entries, from the `metadata/<hw>.json` of its set
    (the nearest above the task): keyed by the task's directory name, at the top or under its
    `level<N>`."""
    found: dict[str, dict[str, dict[str, Floor]]] = {}
    for task in tasks:
        task_dir = src / task.path
        for parent in [task_dir, *task_dir.parents]:
            files = sorted((parent / "metadata").glob("*.json"))
            if files or parent == src:
                break
        for file in files:
            try:
                data = json.loads(file.read_text())
            except (OSError, ValueError):
                continue
            entry = data.get(task_dir.name) or (data.get(f"level{task.level}") or {}).get(
                task_dir.name
            )
            if isinstance(entry, dict):
                found.setdefault(file.stem.lower(), {})[task.name] = {
                    str(cid): Floor.model_validate(v)
                    for cid, v in entry.items()
                    if isinstance(v, dict)
                }
    return found
