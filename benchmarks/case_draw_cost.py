"""What drawing cases afresh for each candidate costs (docs/daemon.md, Case inputs).

For every operator of ascend-ops-v1: the CPU seconds to draw each case's inputs and compute its
reference (`checker.write_inputs`, `references.reference_outputs`: what a fresh draw does), and
which cases the daemon's workers draw for each candidate (`case_data.drawn_fresh`). Prints the
total per operator of those cases (what an evaluation of all its cases now pays more) and the
largest, then the kept cases for comparison.

    python benchmarks/case_draw_cost.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ascend_core import suite
from ascend_core.package import load_package
from npu_daemon import checker, references
from npu_daemon.backends.sim import case_data


def draw_s(pkg, case) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        checker.write_inputs(pkg, case, 12345, Path(tmp))
        references.reference_outputs(pkg, case, Path(tmp), 600)
        return time.process_time() - start


def main() -> None:
    root = Path(suite.__file__).parent
    fresh: dict[str, float] = {}
    kept: dict[str, float] = {}
    for spec in sorted(root.glob("level*/*/op.toml")):
        pkg = load_package(spec.parent)
        name = spec.parent.relative_to(root).as_posix()
        for case in pkg.spec.cases:
            which = fresh if case_data.drawn_fresh(pkg, case) else kept
            which[f"{name} {case.name}"] = draw_s(pkg, case)
    per_op: dict[str, float] = {}
    for key, s in fresh.items():
        per_op[key.split()[0]] = per_op.get(key.split()[0], 0.0) + s
    top = sorted(per_op.items(), key=lambda kv: -kv[1])
    print(
        f"drawn per candidate: {len(fresh)} cases of {len(per_op)} operators, {sum(fresh.values()):.3f} s CPU in all"
    )
    print(
        f"per operator: median {sorted(per_op.values())[len(per_op) // 2] * 1e3:.1f} ms, largest:"
    )
    for op, s in top[:5]:
        print(f"  {op}: {s * 1e3:.1f} ms")
    print(f"kept across evaluations: {len(kept)} cases, {sum(kept.values()):.3f} s CPU in all")


if __name__ == "__main__":
    main()
