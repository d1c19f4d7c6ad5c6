"""Optimise one operator with a policy under an evaluation budget and report against the baseline."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ascend_gym.protocol import DEFAULT_SOC


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("operator", help="op:// URI, <level>/<name> or a package directory")
    parser.add_argument(
        "--policy",
        default="ascendoptimizer",
        help="registered policy (ascend_gym.policies.REGISTRY)",
    )
    parser.add_argument(
        "--budget", type=int, default=40, help="evaluations (counted by the daemon ledger)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", default="", help="directory for result.json, trajectory.jsonl and the best package"
    )
    parser.add_argument(
        "--base-url",
        help="OpenAI-compatible endpoint: use the model instead of the offline proposer",
    )
    parser.add_argument("--model", default="deepseek-chat")
    parser.add_argument(
        "--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key"
    )
    parser.add_argument(
        "--llm-cache", default="", help="record/replay cache directory for model calls"
    )
    parser.add_argument(
        "--ablation", choices=["full", "stage1-only", "stage2-only"], help="ascendoptimizer only"
    )
    parser.add_argument(
        "--config", default="", help="policy config as JSON (merged under the flags above)"
    )
    parser.add_argument("--soc", default=DEFAULT_SOC)
    parser.add_argument(
        "--daemon", help="daemon endpoint (default: an embedded local simulator daemon)"
    )
    parser.add_argument("--run-id", default="", help="daemon ledger key (default: unique)")


def policy_config(args: argparse.Namespace) -> dict[str, Any]:
    """The policy's config from the flags; each policy spells its model settings its own way."""
    config: dict[str, Any] = json.loads(args.config) if args.config else {}
    if args.base_url:
        llm = {"base_url": args.base_url, "model": args.model, "api_key_env": args.api_key_env}
        if args.policy == "ascendoptimizer":
            config.update(
                proposer="llm", llm={**config.get("llm", {}), **llm, "cache_dir": args.llm_cache}
            )
        elif args.policy == "openevolve":
            config.update(
                proposer="llm",
                base_url=args.base_url,
                model=args.model,
                api_key_env=args.api_key_env,
            )
        else:
            config.update(proposer="llm", llm={**config.get("llm", {}), **llm})
    if args.policy == "ascendoptimizer":
        if args.ablation:
            config["ablation"] = args.ablation
        if args.out:
            config["out_dir"] = args.out
    return config


def run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    from ascend_gym.bench import daemon_facts, ledger_usage, versions
    from ascend_gym.client import LocalDaemon
    from ascend_gym.policies import make_policy

    config = policy_config(args)
    run_id = args.run_id or f"optimize-{args.policy}-{int(time.time())}"
    local = None if args.daemon else LocalDaemon()
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator=args.operator,
        budget=args.budget,
        soc=args.soc,
        daemon=args.daemon or local.address,
        run_id=run_id,
    )
    started = time.time()
    try:
        result = make_policy(args.policy, **config).run(env, args.seed)
        core = env.unwrapped
        record = {
            **result.model_dump(mode="json"),
            "run_id": run_id,
            "soc": args.soc,
            "versions": versions(),
            **daemon_facts(core.client),
            "ledger": ledger_usage(core.client, run_id),
            "wall_s": time.time() - started,
        }
    finally:
        env.close()
        if local is not None:
            local.close()
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "optimize.json").write_text(json.dumps(record, indent=2) + "\n")
    label = "simulated" if record.get("simulated", True) else "measured"
    speedup = result.baseline_us / result.best_us
    print(
        f"{result.operator}: policy {result.policy} (proposer {result.proposer}), seed {result.seed}, "
        f"{result.evaluations}/{result.budget} evaluations"
    )
    print(
        f"baseline {result.baseline_us:.2f} us -> best {result.best_us:.2f} us ({label}, {args.soc}): speedup {speedup:.3f}x"
    )
    if result.best_us >= result.baseline_us:
        print("found nothing better than the baseline within the budget")
    phases = getattr(result, "stage_evaluations", None)
    if phases:
        print("evaluations per stage: " + ", ".join(f"{k} {v}" for k, v in sorted(phases.items())))
    if args.out:
        print(
            f"wrote {args.out}/optimize.json"
            + (" (+ trajectory.jsonl, best/)" if args.policy == "ascendoptimizer" else "")
        )
    return 0
