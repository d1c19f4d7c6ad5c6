"""Re-check recorded results: recompile, re-check with fresh random inputs and re-time the best candidates.

Reads JSON lines. A line is checked when it carries the candidate's sources: an env state
(`"state": {...}` as TrajectoryRecorder writes on an episode's last step, or a bare EnvState) or
an operator package (`"best_package": {...}` with `"best_us"`, and `"baseline_us"` if known).
Other lines (e.g. bench records, which keep only the best candidate's hash) are reported as
skipped. For each candidate: the sources must rebuild to the recorded hash; under a new run (no
cache) and each of `--seeds` fresh input seeds it must compile and pass every shape case; its
re-timed latency, and the baseline's, must be within `--tolerance` (relative) of the record.
The simulator is deterministic, so its re-timings match exactly; the tolerance is for NPUs.
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from ascend_gym import suite
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.package import OperatorPackage
from ascend_gym.protocol import DEFAULT_SOC, EvalRequest
from ascend_gym.state import EnvState

DEFAULT_TOLERANCE = 0.05


class Claim(BaseModel):
    """What a record claims about one candidate."""

    line: int
    operator: str
    package: OperatorPackage
    best_us: float
    baseline_us: float | None = None
    soc: str = DEFAULT_SOC
    simulated: bool | None = None


class Verdict(BaseModel):
    line: int
    operator: str = ""
    outcome: Literal["OK", "FAIL", "SKIP"]
    reasons: list[str] = []
    claimed_best_us: float | None = None
    retimed_best_us: float | None = None
    claimed_baseline_us: float | None = None
    retimed_baseline_us: float | None = None
    simulated: bool | None = None


def claim_from(line: int, record: dict[str, Any]) -> Claim | str:
    """The claim of a record, or why it cannot be checked."""
    state_data = (
        record.get("state")
        if isinstance(record.get("state"), dict)
        else (record if {"steps", "baseline_hash"} <= record.keys() else None)
    )
    if state_data is not None:
        state = EnvState.model_validate(state_data)
        try:
            _, _, best = state.rebuild()
        except (ValueError, KeyError) as e:
            return f"state does not rebuild: {e}"
        return Claim(
            line=line,
            operator=state.operator,
            package=best,
            best_us=state.best_us,
            baseline_us=state.baseline_us,
            soc=state.soc,
            simulated=state.simulated,
        )
    if isinstance(record.get("best_package"), dict) and record.get("best_us"):
        package = OperatorPackage.model_validate(record["best_package"])
        return Claim(
            line=line,
            operator=record.get("operator") or package.uri,
            package=package,
            best_us=record["best_us"],
            baseline_us=record.get("baseline_us"),
            soc=record.get("soc", DEFAULT_SOC),
            simulated=record.get("simulated"),
        )
    return "no candidate sources in the record (only hashes)"


def _within(claimed: float, measured: float, tolerance: float) -> bool:
    return abs(measured - claimed) <= tolerance * claimed


def check(claim: Claim, client: DaemonClient, seeds: list[int], tolerance: float) -> Verdict:
    run_id = f"validate-{uuid.uuid4().hex[:12]}"  # a new run: nothing is served from the cache
    verdict = Verdict(
        line=claim.line,
        operator=claim.operator,
        outcome="OK",
        claimed_best_us=claim.best_us,
        claimed_baseline_us=claim.baseline_us,
    )
    for seed in seeds:
        result = client.evaluate(
            EvalRequest(run_id=run_id, package=claim.package, soc=claim.soc, seed=seed)
        )
        verdict.simulated = result.simulated
        if not result.ok:
            verdict.reasons.append(f"seed {seed}: {result.status.value}: {result.message[:300]}")
            continue
        if verdict.retimed_best_us is None:
            verdict.retimed_best_us = result.latency_us
    if verdict.retimed_best_us is not None and not _within(
        claim.best_us, verdict.retimed_best_us, tolerance
    ):
        verdict.reasons.append(
            f"best re-timed {verdict.retimed_best_us:.3f} us, recorded {claim.best_us:.3f} us"
        )
    if (
        claim.simulated is not None
        and verdict.simulated is not None
        and claim.simulated != verdict.simulated
    ):
        verdict.reasons.append("recorded on a different backend kind (simulated vs NPU)")
    if claim.baseline_us is not None and claim.operator.startswith("op://"):
        baseline = client.evaluate(
            EvalRequest(
                run_id=run_id, package=suite.resolve(claim.operator), soc=claim.soc, seed=seeds[0]
            )
        )
        verdict.retimed_baseline_us = baseline.latency_us
        if not baseline.ok or not _within(claim.baseline_us, baseline.latency_us, tolerance):
            verdict.reasons.append(
                f"baseline re-timed {baseline.status.value} {baseline.latency_us} us, "
                f"recorded {claim.baseline_us:.3f} us"
            )
    if verdict.reasons:
        verdict.outcome = "FAIL"
    return verdict


def validate(
    path: Path,
    client: DaemonClient,
    seeds: int = 2,
    tolerance: float = DEFAULT_TOLERANCE,
    rng_seed: int | None = None,
) -> list[Verdict]:
    rng = random.Random(rng_seed)
    verdicts = []
    for i, text in enumerate(path.read_text().splitlines(), start=1):
        if not text.strip():
            continue
        claim = claim_from(i, json.loads(text))
        if isinstance(claim, str):
            verdicts.append(Verdict(line=i, outcome="SKIP", reasons=[claim]))
            continue
        # Fresh inputs: seeds the recording run did not use (it used eval_seed, 0 by default).
        verdicts.append(
            check(claim, client, [rng.randrange(1, 2**31) for _ in range(seeds)], tolerance)
        )
    return verdicts


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", type=Path, help="JSON lines with env states or best packages")
    parser.add_argument(
        "--daemon", help="daemon endpoint (default: an embedded local simulator daemon)"
    )
    parser.add_argument(
        "--seeds", type=int, default=2, help="fresh random-input seeds per candidate (default 2)"
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        help=f"relative re-timing tolerance (default {DEFAULT_TOLERANCE})",
    )
    parser.add_argument(
        "--strict", action="store_true", help="a record that cannot be checked is a failure"
    )
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON lines")


def run(args: argparse.Namespace) -> int:
    local = None if args.daemon else LocalDaemon()
    client = DaemonClient(args.daemon or local.address)
    try:
        verdicts = validate(args.results, client, seeds=args.seeds, tolerance=args.tolerance)
    finally:
        client.close()
        if local is not None:
            local.close()
    for v in verdicts:
        if args.json:
            print(v.model_dump_json())
        else:
            label = "" if v.simulated is None else (" (simulated)" if v.simulated else " (NPU)")
            timing = (
                f" best {v.retimed_best_us:.2f} us{label}" if v.retimed_best_us is not None else ""
            )
            print(
                f"line {v.line}: {v.outcome} {v.operator}{timing}"
                + (f"  {'; '.join(v.reasons)}" if v.reasons else "")
            )
    counts = {k: sum(v.outcome == k for v in verdicts) for k in ("OK", "FAIL", "SKIP")}
    if not args.json:
        print(
            f"{counts['OK']} ok, {counts['FAIL']} failed, {counts['SKIP']} skipped (tolerance {args.tolerance:g})"
        )
    return 1 if counts["FAIL"] or (args.strict and counts["SKIP"]) or not verdicts else 0
