"""Write the definition of ascend-real-v1 (ascend_core/suite/ascend-real-v1.toml) from a corpus run.

    ascend-gym corpus run /work/corpus_src --jobs 2 --json-out run.json
    python benchmarks/define_real_suite.py run.json /work/corpus_src
    python benchmarks/define_real_suite.py --add more.json /work/corpus_src   # add to the definition

With --add, the operators of the run (a run over a copy of some of the checkouts' operator
directories, laid out as SRC is) whose spec the definition does not hold yet are added to it; the
operators already defined keep their entries.

Every operator that passed every case in the run enters, one implementation per spec: the first
by repository preference (hicann/ops-math, hicann/ops-nn, Hayden727/cann-ops, then the others in
path order). Its repository, the checkout's commit, its directory there and its level are
recorded; `ascend-gym suite materialise` re-evaluates each and only those passing qualify.

Levels, as the AscendOptimizer paper groups its benchmark: level 3 multi-stage operators (a
reduction, normalisation, sort, scan, pooling, histogram, loss or linear-algebra operator, and a
BLAS or selection operator whose bench output is smaller than its input: several passes or a
cross-lane combine), level 1 single primitives (data movement, creation, indexing and padding
operators, and any other whose numpy reference applies at most two primitive operations), level 2
fused or compound operators (the rest: optimizer steps, quantisation, activations, complex
arithmetic, and references chaining three or more primitive operations).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np

from ascend_gym.corpus import OPS, OpSource, _spec, spec_for

PREFERRED = ("hicann+ops-math", "hicann+ops-nn", "Hayden727+cann-ops")
MULTI_STAGE = {
    "reduction",
    "normalization",
    "sort",
    "scan",
    "linalg",
    "pooling",
    "histogram",
    "loss",
}
REDUCING = {"blas", "selection"}  # multi-stage where the output is smaller than the input
MOVEMENT = {
    "movement",
    "data_movement",
    "creation",
    "indexing",
    "padding",
    "broadcast",
    "conversion",
}
COMPOUND = {"optimizer", "quantization", "activation", "complex"}
# numpy calls that convert or reshape rather than compute
_NOT_PRIMITIVE = {
    "astype",
    "asarray",
    "array",
    "float16",
    "float32",
    "float64",
    "int32",
    "int64",
    "reshape",
    "broadcast_to",
    "broadcast_arrays",
    "zeros",
    "zeros_like",
    "empty",
    "ones_like",
    "full",
    "len",
    "range",
    "int",
    "float",
    "tuple",
    "list",
    "shape",
}


def primitive_count(spec) -> int:
    """Arithmetic operators and computing numpy calls in the body of our reference function."""
    module, func = spec.reference.split(":")
    tree = ast.parse((OPS / spec.name / f"{module}.py").read_text())
    body = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == func)
    count = 0
    for node in ast.walk(body):
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            count += 1
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            count += name not in _NOT_PRIMITIVE
    return count


def _elements(spec, args) -> int:
    bench = spec.bench_case
    return sum(int(np.prod(spec.arg_shape(bench, a.name))) for a in args[:1])


def level(spec) -> int:
    reduces = spec.inputs and _elements(spec, spec.outputs) < _elements(spec, spec.inputs)
    if spec.category in MULTI_STAGE or (spec.category in REDUCING and reduces):
        return 3
    if spec.category in MOVEMENT:
        return 1
    if spec.category in COMPOUND or primitive_count(spec) >= 3:
        return 2
    return 1


def spec_file(op: str, spec) -> str:
    """The spec file (plain or variant) the corpus runner takes for this implementation."""
    for path in sorted((OPS / op).glob("op*.toml")):
        if _spec(tomllib.loads(path.read_text())) == spec:
            return path.relative_to(OPS.parent.parent.parent).as_posix()
    raise ValueError(f"no spec file of {op} gives the runner's spec")


def _entry(name: str, o: dict, src: Path, commits: dict[str, str]) -> list[str]:
    repo_dir, _, path = o["path"].partition("/")
    if repo_dir not in commits:
        commits[repo_dir] = subprocess.run(
            ["git", "-C", str(src / repo_dir), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    source = OpSource(o["op"], src / repo_dir / path, o["path"])
    spec = spec_for(source)
    return [
        "[[ops]]",
        f'name = "{name}"',
        f"level = {level(spec)}",
        f'repo = "{repo_dir.replace("+", "/", 1)}"',
        f'commit = "{commits[repo_dir]}"',
        f'path = "{path}"',
        f'source = "{o["op"]}"',
        f'spec = "{spec_file(o["op"], spec)}"',
        "",
    ]


def _defined_entries(out: Path) -> dict[str, list[str]]:
    """The definition's entries as written, by operator name."""
    entries: dict[str, list[str]] = {}
    for op in tomllib.loads(out.read_text())["ops"]:
        entries[op["name"]] = (
            ["[[ops]]"]
            + [f"{k} = {v}" if isinstance(v, int) else f'{k} = "{v}"' for k, v in op.items()]
            + [""]
        )
    return entries


def main(run_json: Path, src: Path, out: Path, add: bool = False) -> None:
    passed = [o for o in json.loads(run_json.read_text()) if o["status"] == "OK"]

    def rank(o: dict) -> tuple:
        repo = o["path"].split("/", 1)[0]
        return (PREFERRED.index(repo) if repo in PREFERRED else len(PREFERRED), o["path"])

    chosen: dict[str, dict] = {}
    for o in sorted(passed, key=rank):
        chosen.setdefault(o["op"], o)
    commits: dict[str, str] = {}
    lines = [
        "# ascend-real-v1: public AscendC operators, each pinned at a commit of its repository.",
        "# Written by benchmarks/define_real_suite.py; materialised by",
        "# `ascend-gym suite materialise ascend-real-v1 --src DIR` (DIR/<owner>+<repo> checkouts).",
        'name = "ascend-real-v1"',
        'description = "real public AscendC operators in three levels; the published operator is '
        'the baseline"',
        "",
    ]
    entries = _defined_entries(out) if add else {}
    added = [name for name in sorted(chosen) if name not in entries]
    for name in added:
        entries[name] = _entry(name, chosen[name], src, commits)
    for name in sorted(entries):
        lines += entries[name]
    out.write_text("\n".join(lines))
    print(f"wrote {len(entries)} operators to {out}" + (f" ({len(added)} added)" if add else ""))


if __name__ == "__main__":
    args = sys.argv[1:]
    add = args[:1] == ["--add"]
    if add:
        args = args[1:]
    if len(args) != 2:
        print("usage: define_real_suite.py [--add] RUN_JSON SRC_DIR", file=sys.stderr)
        sys.exit(2)
    main(
        Path(args[0]),
        Path(args[1]),
        Path(__file__).resolve().parent.parent / "ascend_core/suite/ascend-real-v1.toml",
        add,
    )
