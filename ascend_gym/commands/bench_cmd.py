"""Run policies over operators in parallel (Ray) under equal budgets; resumable; prints GM and fast_p.

  ascend-gym bench --suite ascend-ops-v1 --levels 1,2,3 --policies ascendoptimizer,bon,openevolve \\
      --budget 40 --seeds 3 [--daemons tcp://h1:5555,...] [--out results/bench] [--report]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from ascend_gym import bench
from ascend_gym.protocol import DEFAULT_SOC


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ops", default="", help="comma list of ops, `smoke`, `all` or `level1`..`level3`"
    )
    parser.add_argument("--suite", default="", help="run every op of this suite (with --levels)")
    parser.add_argument(
        "--levels", default="", help="comma list of levels of --suite, e.g. 1,2,3 (default: all)"
    )
    parser.add_argument("--policies", default="random", help="comma list of registered policies")
    parser.add_argument(
        "--budget",
        type=int,
        default=40,
        help="evaluations per (policy, op, seed), counted by the daemon ledger",
    )
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--soc", default=DEFAULT_SOC)
    parser.add_argument(
        "--daemons", default="", help="comma list of daemon endpoints (default: start local ones)"
    )
    parser.add_argument(
        "--local-daemons",
        type=int,
        default=1,
        help="local daemons to start when --daemons is not given",
    )
    parser.add_argument(
        "--daemon-workers",
        type=int,
        default=None,
        help="worker processes per local daemon (default: cores)",
    )
    parser.add_argument(
        "--policy-config",
        type=Path,
        default=None,
        help="JSON file: policy name -> constructor keywords (recorded in every result)",
    )
    parser.add_argument(
        "--parallel",
        type=int,
        default=None,
        help="tasks in flight at once (default: the Ray cluster's CPUs)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        help="join an existing Ray cluster (default: start a local one)",
    )
    parser.add_argument(
        "--out", type=Path, default=Path("results/bench"), help="results directory (resumable)"
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="write the report into the results directory afterwards",
    )


def run(args: argparse.Namespace) -> int:
    levels = [int(x) for x in args.levels.split(",") if x] or None
    ops = bench.expand_ops(args.ops or ("" if args.suite else "smoke"), args.suite, levels)
    if not ops:
        print("no operators selected", flush=True)
        return 2
    from ascend_gym.policies import REGISTRY

    unknown = [p for p in args.policies.split(",") if p and p not in REGISTRY]
    if unknown:
        print(f"unknown policies {unknown}; registered: {sorted(REGISTRY)}", flush=True)
        return 2
    policy_config = json.loads(args.policy_config.read_text()) if args.policy_config else {}
    config = bench.SweepConfig(
        ops=ops,
        policies=[p for p in args.policies.split(",") if p],
        budget=args.budget,
        seeds=args.seeds,
        soc=args.soc,
        policy_config=policy_config,
        daemons=[d for d in args.daemons.split(",") if d],
        command=shlex.join(["ascend-gym", *sys.argv[1:]]),
    )
    records = bench.run_bench(
        config,
        args.out,
        local_daemons=args.local_daemons,
        daemon_workers=args.daemon_workers,
        ray_address=args.ray_address,
        parallel=args.parallel,
    )
    config = bench.load_config(args.out, config)
    unchecked = [r for r in records if r.get("budget_ok") is False]
    print(f"\nsimulated results ({config.soc}, sim backend), {args.out / 'results.jsonl'}:")
    print(bench.table(records, config))
    if unchecked:
        print(
            f"WARNING: {len(unchecked)} task(s) charged more than the budget or disagree with the ledger: "
            + ", ".join(r["run_id"] for r in unchecked[:5])
        )
    if args.report:
        from ascend_gym import report

        print(f"report: {report.write_report(args.out)}")
    return 1 if unchecked else 0
