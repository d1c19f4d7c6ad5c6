"""Run policies over operators in parallel (Ray) and print GM speedup and fast_p."""

from __future__ import annotations

import argparse
from pathlib import Path

from ascend_gym import bench


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ops", default="smoke", help="comma list of ops, `smoke`, `all` or `level1`..`level3`")
    parser.add_argument("--policies", default="random", help="comma list of registered policies")
    parser.add_argument("--budget", type=int, default=40, help="evaluations per (policy, op, seed)")
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--soc", default="Ascend910B4")
    parser.add_argument("--daemons", default="", help="comma list of daemon endpoints (default: start a local one)")
    parser.add_argument("--out", type=Path, default=Path("results/bench"), help="results directory (resumable)")


def run(args: argparse.Namespace) -> int:
    records = bench.run_bench(bench.expand_ops(args.ops), args.policies.split(","), args.budget, args.seeds, args.out,
                              soc=args.soc, daemons=[d for d in args.daemons.split(",") if d])
    print(f"\nsimulated results ({args.soc}, sim backend), {args.out / 'results.jsonl'}:")
    print(bench.table(records))
    return 0
