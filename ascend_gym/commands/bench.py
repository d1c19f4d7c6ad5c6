"""Run policies over operators in parallel (Ray) under equal budgets; resumable; prints GM and fast_p.

  ascend-gym bench --suite ascend-ops-v1 --levels 1,2,3 --policies ascendoptimizer,bon,openevolve \\
      --budget 40 --seeds 3 [--daemons tcp://h1:5555,...] [--out results/bench] [--report]

Every daemon must answer before the sweep starts. Exit status 0 when every task finished, 1 when
a task's policy failed or a budget check failed, 2 when a daemon or Ray worker failed under a task
(rerun the command: it resumes and retries those tasks) or on a usage error.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from ascend_core import suite
from ascend_gym import bench, metrics
from ascend_gym.commands.common import (
    UsageError,
    add_json,
    add_model,
    add_soc,
    add_timing,
    check_policy_config,
    endpoints,
    load_operator,
    model_settings,
    positive_int,
    takes_model,
    with_model,
)
from ascend_gym.policies import REGISTRY


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ops",
        default=None,
        help="comma list of ops (op:// URIs, <level>/<name> or package directories), `smoke`, "
        "`all` or `level1`..`level3` (default: smoke, unless --suite is given)",
    )
    parser.add_argument("--suite", default="", help="run every op of this suite (with --levels)")
    parser.add_argument(
        "--levels", default="", help="comma list of levels of --suite, e.g. 1,2,3 (default: all)"
    )
    parser.add_argument(
        "--policies",
        default="random",
        metavar="P[,P...]",
        help=f"comma list of policies: {', '.join(sorted(REGISTRY))}, or your own as "
        "module:Class (default: random)",
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        default=40,
        help="evaluations per (policy, op, seed), counted by the daemon ledger (default 40)",
    )
    parser.add_argument(
        "--seeds", type=positive_int, default=1, help="seeds per (policy, op) (default 1)"
    )
    add_model(parser)
    add_soc(parser)
    add_timing(parser)
    parser.add_argument(
        "--daemons",
        "--daemon",
        type=endpoints,
        default=[],
        help="comma list of daemon endpoints, e.g. tcp://h1:5555,tcp://h2:5555 (default: start "
        "local ones)",
    )
    parser.add_argument(
        "--local-daemons",
        type=positive_int,
        default=1,
        help="local daemons to start when --daemons is not given (default 1)",
    )
    parser.add_argument(
        "--daemon-workers",
        type=positive_int,
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
        type=positive_int,
        default=None,
        help="tasks in flight at once (default: the Ray cluster's CPUs)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        help="join an existing Ray cluster (default: start a quiet local one)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("results/bench"),
        help="results directory; rerunning with the same one resumes (default results/bench)",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="write the report (report.md, report.html) into the results directory afterwards",
    )
    add_json(parser, "the table (one object per policy and level)")


def sweep_config(args: argparse.Namespace) -> bench.SweepConfig:
    try:
        levels = [int(x) for x in args.levels.split(",") if x] or None
    except ValueError:
        raise UsageError(f"--levels {args.levels!r}: give numbers such as 1,2,3") from None
    if levels and not args.suite:
        raise UsageError("--levels selects levels of --suite: give --suite NAME too")
    if args.ops is not None and not args.ops.strip(","):
        raise UsageError("--ops is empty: name operators, or leave --ops out for the smoke set")
    if args.out.exists() and not args.out.is_dir():
        raise UsageError(f"--out {args.out} is a file: give a results directory")
    names = suite.expand(args.ops or ("" if args.suite else "smoke"))
    if args.suite:
        try:
            names += suite.op_uris(args.suite, levels=levels)
        except KeyError:
            raise UsageError(f"unknown suite {args.suite!r} (`ascend-gym suite list`)") from None
    # Each op loaded and checked here, one clear line per mistake; records are keyed by the
    # canonical address, so `level1/add` and its op:// URI resume alike.
    ops = list(dict.fromkeys(load_operator(name).uri for name in names))
    if not ops:
        raise UsageError("no operators selected (see --ops, --suite and --levels)")
    policies = [p for p in args.policies.split(",") if p]
    if not policies:
        raise UsageError(f"--policies names none; registered: {', '.join(sorted(REGISTRY))}")
    policy_config = _policy_config(args.policy_config)
    for name in policies:  # each loads and takes its config here, not in every task
        if name not in REGISTRY or name in policy_config:
            check_policy_config(name, policy_config.get(name, {}), "--policies")
    for name, keywords in policy_config.items():
        check_policy_config(name, keywords, f"--policy-config {args.policy_config}")
    llm = model_settings(args)
    if llm is not None:
        if not any(takes_model(p) for p in policies):
            raise UsageError(f"--base-url: none of the policies {', '.join(policies)} asks a model")
        policy_config = {p: with_model(p, policy_config.get(p, {}), llm) for p in policies}
        policy_config = {p: c for p, c in policy_config.items() if c}
    return bench.SweepConfig(
        ops=ops,
        policies=policies,
        budget=args.budget,
        seeds=args.seeds,
        soc=args.soc,
        timing=args.timing,
        timing_protocol=args.timing_protocol,
        policy_config=policy_config,
        daemons=args.daemons,
        command=shlex.join(["ascend-gym", *sys.argv[1:]]),
    )


def _policy_config(path: Path | None) -> dict:
    if path is None:
        return {}
    try:
        config = json.loads(path.read_text())
    except FileNotFoundError:
        raise UsageError(f"--policy-config {path}: no such file") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}:{e.lineno}:{e.colno}: not JSON: {e.msg}") from None
    if not isinstance(config, dict) or not all(isinstance(v, dict) for v in config.values()):
        raise UsageError(f"{path}: give an object of policy name -> object of keywords")
    return config


def run(args: argparse.Namespace) -> int:
    config = sweep_config(args)
    try:
        records = bench.run_bench(
            config,
            args.out,
            local_daemons=args.local_daemons,
            daemon_workers=args.daemon_workers,
            ray_address=args.ray_address,
            parallel=args.parallel,
        )
        config = bench.load_config(args.out, config)
    except ValueError as e:  # a results directory made with other settings
        raise UsageError(str(e)) from None
    unchecked = [r for r in records if r.budget_ok is False]
    infra = [r for r in records if r.infra_failed]
    failed = [r for r in records if not r.ok and not r.infra_failed]
    if args.json:
        rows = metrics.table_rows(records, config.ops, config.policies, config.seeds)
        for row in rows:  # a sweep is timed under one protocol (bench.load_config holds it)
            print(
                json.dumps(
                    {**row.model_dump(mode="json"), "timing_protocol": config.timing_protocol}
                )
            )
    else:
        kinds = sorted(
            {"simulated" if r.simulated is not False else "NPU" for r in records if r.ok}
        )
        print(
            f"\n{'/'.join(kinds) or 'no'} results ({config.soc}, {config.timing_protocol} "
            f"protocol), {args.out / 'results.jsonl'}:"
        )
        print(bench.table(records, config))
    for what, bad in (
        ("charged more than the budget or disagree with the ledger", unchecked),
        ("failed", failed),
        ("failed for infrastructure reasons (rerun the command to retry them)", infra),
    ):
        if bad:
            print(
                f"WARNING: {len(bad)} task(s) {what}: "
                + ", ".join(
                    f"{r.policy} {r.operator} s{r.seed}: {bench.shorten(r.error, 200)}"
                    for r in bad[:3]
                ),
                file=sys.stderr,
            )
    if args.report:
        from ascend_gym import report

        print(f"report: {report.write_report(args.out)}")
    return 2 if infra else 1 if (unchecked or failed) else 0
