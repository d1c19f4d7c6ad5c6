"""Optimise one operator with a policy under an evaluation budget and report against the baseline.

With --out DIR it writes DIR/result.json (the run's record, as a bench writes one per task),
DIR/trajectory.jsonl (one line per evaluation), DIR/candidates/ (the best candidate's sources,
which `ascend-gym validate DIR` re-checks) and DIR/best/ (the best candidate as an operator
package: `ascend-gym eval DIR/best`). Exit status 0 when the run finished, 1 when it failed
(the record says why, in result.json too), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ascend_gym.commands.common import (
    UsageError,
    add_daemon,
    add_model,
    add_soc,
    add_timing,
    check_policy_config,
    daemon_client,
    load_operator,
    model_settings,
    positive_int,
    takes_model,
    with_model,
)
from ascend_gym.policies import REGISTRY


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("operator", help="op:// URI, <level>/<name> or a package directory")
    parser.add_argument(
        "--policy",
        default="ascendoptimizer",
        help=f"the policy: {', '.join(sorted(REGISTRY))}, or your own as module:Class "
        "(default ascendoptimizer)",
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        default=40,
        help="evaluations, counted by the daemon ledger (default 40)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the policy's seed (default 0)")
    parser.add_argument(
        "--out",
        default="",
        help="directory for result.json, trajectory.jsonl, candidates/ and best/ (the best "
        "candidate as an operator package)",
    )
    add_model(parser)
    parser.add_argument(
        "--ablation",
        choices=["full", "stage1-only", "stage2-only"],
        help="which stages AscendOptimizer runs (ascendoptimizer only; default full)",
    )
    parser.add_argument(
        "--config", default="", help="policy config as JSON (merged under the flags above)"
    )
    add_soc(parser)
    add_timing(parser)
    add_daemon(parser)
    parser.add_argument("--run-id", default="", help="daemon ledger key (default: unique)")


def policy_config(args: argparse.Namespace) -> dict[str, Any]:
    """The policy's config from the flags; every policy takes the same model settings (`llm`)."""
    try:
        config: dict[str, Any] = json.loads(args.config) if args.config else {}
    except json.JSONDecodeError as e:
        raise UsageError(f"--config is not JSON: {e.msg} at column {e.colno}") from None
    if not isinstance(config, dict):
        raise UsageError("--config must be a JSON object of policy keywords")
    check_policy_config(args.policy, config, "--config")  # it loads, and takes what was given
    llm = model_settings(args)
    if llm is not None and not takes_model(args.policy):
        raise UsageError(f"--base-url: policy {args.policy} asks no model")
    config = with_model(args.policy, config, llm)
    if args.policy == "ascendoptimizer":
        if args.ablation:
            config["ablation"] = args.ablation
        if args.out:
            config["out_dir"] = args.out
    elif args.ablation:
        raise UsageError(f"--ablation is AscendOptimizer's; policy {args.policy} has no stages")
    check_policy_config(args.policy, config, "--config")
    return config


def run(args: argparse.Namespace) -> int:
    import sys

    from ascend_gym import records
    from ascend_gym.bench import run_one
    from ascend_gym.commands.export import write_package

    operator = load_operator(args.operator).uri
    config = policy_config(args)
    run_id = args.run_id or f"optimize-{args.policy}-{int(time.time())}"
    out = Path(args.out) if args.out else None
    if out is not None and (out / "best").exists():
        raise UsageError(f"{out} holds an earlier run (best/): give a new --out directory")
    with daemon_client(args.daemon) as client:  # the same task a bench runs, on one operator
        record, best = run_one(
            args.policy,
            operator,
            args.seed,
            args.budget,
            client.address,
            args.soc,
            run_id,
            config,
            timing=args.timing,
            timing_protocol=args.timing_protocol,
        )
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        if best is not None:
            record.best_file = records.save_candidate(out, best)
            write_package(best, out / "best", replace=True)  # over the policy's own copy
        (out / "result.json").write_text(record.model_dump_json(indent=2) + "\n")
        if not (out / "trajectory.jsonl").exists():  # AscendOptimizer writes a richer one itself
            (out / "trajectory.jsonl").write_text(
                "".join(step.model_dump_json() + "\n" for step in record.trajectory)
            )
    if not record.ok:  # the daemon, the model or the operator: exit 2; the policy itself: 1
        print(f"ascend-gym: optimize: {' '.join(record.error.split())}", file=sys.stderr)
        return 1 if record.failure == "policy" else 2
    label = "simulated" if record.simulated is not False else "measured"
    speedup = record.baseline_us / record.best_us
    print(
        f"{operator}: policy {record.policy} (proposer {record.proposer}), seed {record.seed}, "
        f"{record.evaluations}/{record.budget} evaluations"
    )
    print(
        f"baseline {record.baseline_us:.2f} us -> best {record.best_us:.2f} us ({label}, {record.soc}, {record.timing_protocol} protocol): speedup {speedup:.3f}x"
    )
    if record.stopped:  # the model had nothing new: a result, as a search that ran dry
        print(f"stopped after {record.evaluations} evaluations: {record.stopped}")
    if record.best_us >= record.baseline_us:
        print("found nothing better than the baseline within the budget")
    if record.recheck is not None:  # a faster best, checked on inputs the search never saw
        seeds = ", ".join(map(str, record.recheck.seeds))
        fresh = f"rechecked on fresh inputs (input seeds {seeds})"
        if record.wrong:
            why = " ".join(f"{record.recheck.status}: {record.recheck.message}".split())[:300]
            print(f"{fresh}: it fails, so it is no speedup (counted as 1.000x): {why}")
        else:
            print(f"{fresh}: it passes")
    phases = getattr(record, "stage_evaluations", None)
    if phases:
        print("evaluations per stage: " + ", ".join(f"{k} {v}" for k, v in sorted(phases.items())))
    if out is not None:
        kept = ", candidates/, best/" if best is not None else " (best candidate not kept)"
        print(f"wrote {out}/result.json, trajectory.jsonl{kept}")
    return 0
