"""Re-check recorded results: recompile, re-check with fresh random inputs and re-time the best candidates.

  ascend-gym validate results/bench          # a bench results directory (or an optimize --out)
  ascend-gym validate episodes.jsonl         # env states or best packages, one per line

A bench or optimize directory keeps each task's best candidate (sources included) under
candidates/; every task with one is checked, and identical claims once. A JSON-lines file is
checked line by line when a line carries the candidate's sources: an env state (`"state": {...}`
as TrajectoryRecorder writes on an episode's last step, or a bare EnvState) or an operator package
(`"best_package": {...}` with `"best_us"`, and `"baseline_us"` if known); other lines are skipped.

For each candidate: under a new run (no cache) and each of `--seeds` fresh input seeds it must
compile and pass every shape case; its re-timed latency, and the baseline's, must be within
`--tolerance` (relative) of the record. The simulator is deterministic, so its re-timings match
exactly; the tolerance is for NPUs. (`ascend-gym suite validate` checks the suite's operators.)

Exit status 0 when every checked candidate agrees, 1 when one disagrees (or, with --strict, when a
record cannot be checked), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ascend_core.package import OperatorPackage
from ascend_gym.client import DaemonClient
from ascend_gym.commands.common import UsageError, add_daemon, daemon_client
from ascend_gym.records import RESULTS, SweepRecord, latest, load_candidate, read_records
from ascend_gym.state import EnvState
from ascend_gym.validation import DEFAULT_SOC, DEFAULT_TOLERANCE, Claim, Verdict, check

OPTIMIZE_RESULT = "result.json"  # what `ascend-gym optimize --out DIR` writes


def claim_from(line: int, record: dict[str, Any]) -> Claim | str:
    """The claim of a JSON-lines record, or why it cannot be checked."""
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
            timing=state.timing,
            timing_protocol=state.timing_protocol,
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
            timing=record.get("timing", "auto"),
            timing_protocol=record.get("timing_protocol", "cold"),
            simulated=record.get("simulated"),
        )
    return "no candidate sources in the record (only hashes)"


def record_claim(results_dir: Path, line: int, record: SweepRecord) -> Claim | str:
    """The claim of a sweep or optimize record, whose best candidate is kept under candidates/."""
    if not record.ok or record.best_us is None:
        return f"the task has no result ({record.error[:120] or 'failed'})"
    package = load_candidate(results_dir, record)
    if package is None and record.best_file:
        return f"{record.best_file} is missing (the sweep was copied without its candidates/)"
    if package is None:
        return "no best candidate kept (recorded by an older version: only its hash)"
    if package.content_hash() != record.best_hash and record.best_hash:
        return f"{record.best_file} does not hash to the recorded best_hash"
    return Claim(
        line=line,
        task=f"{record.policy} {record.operator} seed {record.seed}",
        operator=record.operator,
        package=package,
        best_us=record.best_us,
        baseline_us=record.baseline_us,
        soc=record.soc or DEFAULT_SOC,
        timing=record.timing,
        timing_protocol=record.timing_protocol,
        simulated=record.simulated,
    )


def read_claims(path: Path) -> list[tuple[int, Claim | str]]:
    """(line, claim or why not) for a results directory or a JSON-lines file."""
    if path.is_dir():
        records = _directory_records(path)
        return [(i, record_claim(path, i, r)) for i, r in enumerate(records, start=1)]
    if not path.is_file():
        raise UsageError(f"no results at {path}: give a bench --out directory or a JSON-lines file")
    out: list[tuple[int, Claim | str]] = []
    for i, text in enumerate(path.read_text().splitlines(), start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as e:
            raise UsageError(f"{path}:{i}:{e.colno}: not JSON: {e.msg}") from None
        out.append((i, claim_from(i, record) if isinstance(record, dict) else "not an object"))
    return out


def _directory_records(path: Path) -> list[SweepRecord]:
    if (path / RESULTS).is_file():
        return latest(read_records(path / RESULTS))
    if (path / OPTIMIZE_RESULT).is_file():
        return [SweepRecord.model_validate_json((path / OPTIMIZE_RESULT).read_text())]
    raise UsageError(
        f"{path} holds neither {RESULTS} (ascend-gym bench --out) nor {OPTIMIZE_RESULT} "
        "(ascend-gym optimize --out)"
    )


def validate(
    path: Path,
    client: DaemonClient,
    seeds: int = 2,
    tolerance: float = DEFAULT_TOLERANCE,
    rng_seed: int | None = None,
) -> list[Verdict]:
    rng = random.Random(rng_seed)
    verdicts: list[Verdict] = []
    checked: dict[tuple[Any, ...], Verdict] = {}
    for line, claim in read_claims(path):
        if isinstance(claim, str):
            verdicts.append(Verdict(line=line, outcome="SKIP", reasons=[claim]))
            continue
        same = checked.get(claim.identity())
        if same is None:
            # Fresh inputs: seeds the recording run did not use (it used eval_seed, 0 by default).
            same = check(claim, client, [rng.randrange(1, 2**31) for _ in range(seeds)], tolerance)
            checked[claim.identity()] = same
        verdicts.append(same.model_copy(update={"line": line, "task": claim.task}))
    return verdicts


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results",
        type=Path,
        help="a results directory of `ascend-gym bench` or `optimize --out`, or JSON lines "
        "with env states or best packages",
    )
    add_daemon(parser)
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
    if args.seeds < 1 or args.tolerance < 0:
        raise UsageError("--seeds must be at least 1 and --tolerance at least 0")
    read_claims(args.results)  # usage errors before a daemon starts
    with daemon_client(args.daemon) as client:
        verdicts = validate(args.results, client, seeds=args.seeds, tolerance=args.tolerance)
    for v in verdicts:
        if args.json:
            print(v.model_dump_json())
            continue
        label = "" if v.simulated is None else (" (simulated)" if v.simulated else " (NPU)")
        timing = f" best {v.retimed_best_us:.2f} us{label}" if v.retimed_best_us is not None else ""
        print(
            f"{'line ' + str(v.line) if not v.task else v.task}: {v.outcome}"
            + (f" {v.operator}" if not v.task else "")
            + timing
            + (f"  {'; '.join(v.reasons)}" if v.reasons else "")
        )
    counts = {k: sum(v.outcome == k for v in verdicts) for k in ("OK", "FAIL", "SKIP")}
    if not args.json:
        print(
            f"{counts['OK']} agree, {counts['FAIL']} disagree, {counts['SKIP']} skipped "
            f"(tolerance {args.tolerance:g})"
        )
    return 1 if counts["FAIL"] or (args.strict and counts["SKIP"]) or not verdicts else 0
