"""Build or inspect AscendOptimizer's experience bank (Stage II rewind from the suite's experts,
or from real operators' own code)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ascend_gym.commands.common import add_model, add_soc, endpoint, model_settings


def configure(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="bank_command", required=True)
    build = verbs.add_parser(
        "build", help="rewind every expert version and distil the kept pairs into a bank"
    )
    build.add_argument(
        "--ops",
        default="",
        help="comma list of operators or suites (default: every expert of the suite); one without "
        "an expert version, as a real operator, is rewound from its own code",
    )
    build.add_argument(
        "--out",
        required=True,
        help="bank directory to write (the shipped bank is agents/data/bank: name it to replace it)",
    )
    build.add_argument(
        "--threshold-pct",
        type=float,
        default=5.0,
        help="keep a pair when latency rises by at least this",
    )
    build.add_argument("--max-kept", type=int, default=6, help="rewind steps kept per expert")
    build.add_argument("--max-tried", type=int, default=14, help="evaluations per expert")
    build.add_argument("--seed", type=int, default=0, help="seed of the rewinds (default 0)")
    build.add_argument(
        "--embedder",
        choices=["auto", "dense", "tfidf"],
        default="auto",
        help="experience embedder: dense (MiniLM), tfidf, or auto (dense when installed)",
    )
    add_soc(build)
    build.add_argument(
        "--daemon",
        type=endpoint,
        help="daemon endpoint (default: an embedded local simulator daemon)",
    )
    build.add_argument(
        "--workers",
        type=int,
        default=2,
        help="experts rewound in parallel (and embedded daemon workers)",
    )
    add_model(build, role="the model is the inverse agent and distiller")
    show = verbs.add_parser("show", help="print a bank's build numbers and entries")
    show.add_argument(
        "dir", nargs="?", default="", help="bank directory (default: the shipped bank)"
    )


def run(args: argparse.Namespace) -> int:
    from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR

    if args.bank_command == "show":
        return _show(Path(args.dir or DEFAULT_BANK_DIR))
    return _build(args, Path(args.out))


def _build(args: argparse.Namespace, out: Path) -> int:
    from agents.ascendoptimizer.offline import OfflineProposer
    from agents.ascendoptimizer.rewind import RewindConfig, build_bank
    from agents.llm.gateway import ModelUnavailable
    from ascend_core import suite
    from ascend_gym.client import LocalDaemon

    uris = suite.expand(args.ops) if args.ops else suite.expert_uris()
    uris = [u if u.startswith("op://") else f"op://{suite.SUITE_NAME}/{u}" for u in uris]
    settings = model_settings(args)
    gateway = None
    if settings:
        from agents.ascendoptimizer.llm_proposer import LLMProposer
        from agents.llm import ChatClient, LLMConfig, ModelGateway

        llm = LLMConfig(**settings)
        # The build charges no policy's budget: its calls are recorded and counted, not capped.
        gateway = ModelGateway(llm.model_copy(update={"max_calls_per_evaluation": 10**9}))
        via_gateway = llm.model_copy(update={"base_url": gateway.base_url})

        def factory():
            return LLMProposer(ChatClient(via_gateway))
    else:

        def factory():
            return OfflineProposer()

    config = RewindConfig(
        threshold_pct=args.threshold_pct,
        max_kept_per_expert=args.max_kept,
        max_tried_per_expert=args.max_tried,
    )
    local = None if args.daemon else LocalDaemon(workers=args.workers)
    try:
        bank, stats = build_bank(
            uris,
            args.daemon or local.address,
            factory,
            config,
            out,
            embedder=args.embedder,
            seed=args.seed,
            soc=args.soc,
            parallel=args.workers,
        )
    finally:
        if local is not None:
            local.close()
        if gateway is not None:
            gateway.close()
    if gateway is not None and gateway.failure:  # the rewinds stopped asking: a short bank
        raise ModelUnavailable(
            f"{gateway.failure}; the bank in {out} is short ({stats.tried} rewind steps tried)",
            gateway.account(),
        )
    meta = json.loads((out / "meta.json").read_text())
    meta["command"] = " ".join(["ascend-gym bank build", *_argv(args)])
    (out / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    print(f"bank: {out} ({bank.embedder.name})")
    print(
        f"experts rewound: {stats.experts}; rewind steps tried: {stats.tried}; kept (latency +{stats.threshold_pct:g}% "
        f"or more): {stats.kept}; failed to compile/check: {stats.failed}  [simulated latencies]"
    )
    for uri, c in stats.per_operator.items():
        print(
            f"  {uri.removeprefix('op://' + suite.SUITE_NAME + '/')}: kept {c['kept']} of {c['tried']} tried "
            f"({c['failed']} failed)"
        )
    return 0


def _argv(args: argparse.Namespace) -> list[str]:
    out = []
    for key in (
        "ops",
        "out",
        "threshold_pct",
        "max_kept",
        "max_tried",
        "seed",
        "embedder",
        "base_url",
        "model",
    ):
        value = getattr(args, key)
        default = {
            "threshold_pct": 5.0,
            "max_kept": 6,
            "max_tried": 14,
            "seed": 0,
            "embedder": "auto",
        }.get(key)
        if value not in (None, "", default):
            out += [f"--{key.replace('_', '-')}", str(value)]
    return out


def _show(root: Path) -> int:
    from agents.ascendoptimizer.bank import ExperienceBank

    if not (root / "bank.jsonl").is_file():
        print(f"no bank at {root}; build one with `ascend-gym bank build`")
        return 1
    bank = ExperienceBank.load(
        root, "tfidf"
    )  # listing needs no embeddings: skip loading the dense model
    stats = bank.meta.get("stats", {})
    print(
        f"{root}: {len(bank)} experiences (built with {bank.meta.get('embedder')}, loaded with {bank.embedder.name})"
    )
    if stats:
        print(
            f"rewind: {stats['kept']} kept of {stats['tried']} tried ({stats['failed']} failed), "
            f"threshold +{stats['threshold_pct']:g}%"
        )
    for e in bank.experiences:
        print(
            f"- [{e.operator.split('/', 3)[-1]}] {e.title}: {e.slowdown:.2f}x ({e.motif}); bottleneck: {e.bottleneck}"
        )
    return 0
