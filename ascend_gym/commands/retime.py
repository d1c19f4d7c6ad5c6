"""Re-time a sweep's best candidates under another timing protocol or SoC: do the speedups hold?

  ascend-gym retime results/bench --timing-protocol warm
  ascend-gym retime results/bench --soc Ascend910B2 --out results/bench-910b2

Every task's best candidate and its operator's baseline are evaluated once more (each distinct
package once, on the given SoC under the given protocol), and the sweep's table is printed with
those latencies: GM speedup and fast_p per policy and level, over the sweep's operator set. The
policies searched under the recorded setting, so this measures how their picks carry over, not
what a search under the new setting would find: a pick slower than the baseline there counts below
1.0, and one that fails there (a tiling that no longer fits the SoC) counts as 1.0 and is named.
`--out DIR` writes the re-timed records as a results directory (`ascend-gym report DIR` draws it;
trajectories are left out: they were timed under the recorded setting). Every finished task's
best candidate must be kept under the sweep's candidates/: a pick that cannot be re-timed would
count with its recorded latency under the new label, so retime refuses such a sweep.

Exit status 0 when every re-evaluation passed, 1 when a candidate or a baseline failed under the
new setting, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path

from ascend_core import suite
from ascend_core.protocol import TIMING_PROTOCOLS, EvalRequest, EvalResult
from ascend_core.soc import socs
from ascend_gym import metrics
from ascend_gym.client import DaemonClient
from ascend_gym.commands.common import UsageError, add_daemon, daemon_client
from ascend_gym.commands.validate import record_claim
from ascend_gym.records import RESULTS, SWEEP, Key, SweepConfig, SweepRecord
from ascend_gym.report import load
from ascend_gym.validation import Claim


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", type=Path, help="a results directory of `ascend-gym bench`")
    parser.add_argument(
        "--soc", choices=socs(), help="the SoC preset to re-time on (default: the sweep's)"
    )
    parser.add_argument(
        "--timing-protocol",
        choices=TIMING_PROTOCOLS,
        help="the protocol to re-time under (default: the sweep's; docs/performance_model.md)",
    )
    parser.add_argument("--out", type=Path, help="write the re-timed records here")
    add_daemon(parser)


def kept_picks(results: Path, records: list[SweepRecord]) -> dict[Key, Claim]:
    """Each finished task's best candidate; a finished task without one is a usage error."""
    claims = {r.key: record_claim(results, 0, r) for r in records if r.ok and r.best_us is not None}
    unkept = [
        f"{' '.join(map(str, k))}: {why}" for k, why in claims.items() if isinstance(why, str)
    ]
    if unkept:
        raise UsageError(
            f"{results}: {len(unkept)} of {len(claims)} finished tasks cannot be re-timed "
            f"(first: {unkept[0]}); retime needs every pick's package under candidates/"
        )
    return {k: c for k, c in claims.items() if isinstance(c, Claim)}


def retime(
    config: SweepConfig,
    records: list[SweepRecord],
    picks: dict[Key, Claim],
    client: DaemonClient,
    soc: str,
    protocol: str,
) -> tuple[SweepConfig, list[SweepRecord], list[str]]:
    """The sweep's config and records with each finished task's latencies re-timed (one
    evaluation per distinct package), and what failed under the new setting."""
    baselines = {op: suite.resolve(op) for op in sorted({c.operator for c in picks.values()})}
    packages = {p.content_hash(): p for p in baselines.values()}
    packages |= {c.package.content_hash(): c.package for c in picks.values()}
    print(f"re-timing {len(packages)} packages ...", file=sys.stderr)
    run_id = f"retime-{uuid.uuid4().hex[:12]}"
    client.open_run(run_id, len(packages))
    timed = {
        digest: client.evaluate(
            EvalRequest(
                run_id=run_id,
                package=package,
                soc=soc,
                seed=0,  # bench's evaluation seed
                timing=config.timing,
                timing_protocol=protocol,
            )
        )
        for digest, package in packages.items()
    }
    out, problems = [], []
    for r in records:
        if r.key not in picks:  # no result to re-time: it counts as before
            out.append(r)
            continue
        base = timed[baselines[r.operator].content_hash()]
        pick = timed[picks[r.key].package.content_hash()]
        update: dict = {"soc": soc, "timing_protocol": protocol, "trajectory": []}
        if not base.ok:
            update |= {"ok": False, "failure": "operator", "error": _failed("baseline", base)}
        elif not pick.ok:  # the baseline stays where the pick fails
            update |= {"baseline_us": base.latency_us, "best_us": base.latency_us}
            update["error"] = _failed("best candidate", pick)
        else:
            update |= {"baseline_us": base.latency_us, "best_us": pick.latency_us}
        if "error" in update:
            problems.append(f"{r.policy} {r.operator} seed {r.seed}: {update['error']}")
        out.append(r.model_copy(update=update | {"expected_speedup": None}))
    return config.model_copy(update={"soc": soc, "timing_protocol": protocol}), out, problems


def _failed(what: str, result: EvalResult) -> str:
    return f"{what} {result.status.value} when re-timed: {' '.join(result.message.split())[:200]}"


def table(config: SweepConfig, records: list[SweepRecord]) -> str:
    lines = [
        f"{'policy':<16} {'level':>5} {'ops':>4} {'GM speedup':>11} "
        + " ".join(f"{'fast_' + str(p):>9}" for p in metrics.FAST_P)
    ]
    for row in metrics.table_rows(records, config.ops, config.policies, config.seeds):
        lines.append(
            f"{row.policy:<16} {row.level:>5} {row.ops:>4} {row.gm:>11.3f} "
            + " ".join(f"{row.fast[str(p)]:>9.2f}" for p in metrics.FAST_P)
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        recorded, records = load(args.results)  # usage errors before a daemon starts
    except FileNotFoundError as e:
        raise UsageError(str(e)) from None
    picks = kept_picks(args.results, records)
    soc = args.soc or recorded.soc
    protocol = args.timing_protocol or recorded.timing_protocol
    with daemon_client(args.daemon) as client:
        config, records, problems = retime(recorded, records, picks, client, soc, protocol)
    kinds = "simulated" if any(r.simulated is not False for r in records if r.ok) else "NPU"
    print(f"{kinds} results re-timed on {soc} under the {protocol} protocol:")
    print(table(config, records))
    for problem in problems:
        print(problem, file=sys.stderr)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / SWEEP).write_text(config.model_dump_json(indent=2) + "\n")
        (args.out / RESULTS).write_text("".join(r.model_dump_json() + "\n" for r in records))
        print(f"wrote {args.out / RESULTS}")
    return 1 if problems else 0
