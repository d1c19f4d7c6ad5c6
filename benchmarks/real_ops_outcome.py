"""Evaluate some operators of a defined suite as `suite materialise` does, without writing the suite.

`python benchmarks/real_ops_outcome.py SUITE SRC OP [OP ...] [--json-out OUT]` prints each named
operator's status, bench latency (simulated) and first line: the operator's outcome at the case
sizes of its definition, for a before/after comparison of a few operators where a whole
materialisation (about 45 minutes at real sizes) would redo all of them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ascend_gym.corpus import defined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite")
    parser.add_argument("src", type=Path)
    parser.add_argument("ops", nargs="+")
    parser.add_argument("--draws", type=int, default=1)
    parser.add_argument("--soc", default="Ascend910B4")
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args()
    ops = {op.name: op for op in defined.load_definition(args.suite).ops}
    unknown = sorted(set(args.ops) - set(ops))
    if unknown:
        parser.error(f"not in {args.suite}: {', '.join(unknown)}")
    outcomes = []
    for name in args.ops:
        q, _ = defined._one(ops[name], args.src, args.soc, False, args.draws, None)
        outcomes.append(q.model_dump())
        latency = f"{q.latency_us:.2f} us" if q.latency_us is not None else "-"
        print(
            f"{q.status:<16} {name:<30} {latency:>12}  {q.message.splitlines()[0][:160] if q.message else ''}",
            flush=True,
        )
    if args.json_out:
        args.json_out.write_text(json.dumps(outcomes, indent=1))


if __name__ == "__main__":
    main()
