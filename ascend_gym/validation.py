"""Re-evaluating a recorded best candidate: does it still compile, pass and take what was recorded?

`check` evaluates a claimed candidate under a new run (nothing served from the cache) on fresh
random inputs, and its baseline, and compares latencies within a relative tolerance. It backs
`ascend-gym validate` and `AscendOpEnv.validate()`. `recheck` is the bench's narrower question,
asked of every task's faster best before its record is written: is the answer still right on
inputs the search never saw?
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable, Iterable
from typing import Any, Literal

from pydantic import BaseModel

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_core.protocol import (
    DEFAULT_SOC,
    EvalRequest,
    EvalResult,
    Stage,
    Status,
    TimingProtocol,
)
from ascend_gym.client import DaemonClient, DaemonError

DEFAULT_TOLERANCE = 0.05


class Claim(BaseModel):
    """What a record claims about one candidate."""

    line: int = 0  # where it was read from (0: not from a file)
    task: str = ""  # "policy op seed" for a sweep record
    operator: str
    package: OperatorPackage
    best_us: float
    baseline_us: float | None = None
    soc: str = DEFAULT_SOC
    timing: Literal["auto", "full", "sampled"] = "auto"  # how the record was timed
    timing_protocol: TimingProtocol = "cold"
    simulated: bool | None = None

    def identity(self) -> tuple[Any, ...]:
        return (
            self.package.content_hash(),
            self.best_us,
            self.baseline_us,
            self.soc,
            self.timing,
            self.timing_protocol,
        )

    def request(self, run_id: str, package: OperatorPackage, seed: int) -> EvalRequest:
        """An evaluation of `package` on the claim's SoC, timed as the claim was."""
        return EvalRequest(
            run_id=run_id,
            package=package,
            soc=self.soc,
            seed=seed,
            timing=self.timing,
            timing_protocol=self.timing_protocol,
        )


class Recheck(BaseModel):
    """A task's best candidate checked on input seeds its search never saw."""

    seeds: list[int]  # checked in order; on a failure, the last is the one it failed on
    status: str  # the daemon's status: "OK" on every seed, or why the candidate failed
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status == Status.OK.value


class Verdict(BaseModel):
    line: int = 0
    task: str = ""
    operator: str = ""
    outcome: Literal["OK", "FAIL", "SKIP"]
    reasons: list[str] = []
    claimed_best_us: float | None = None
    retimed_best_us: float | None = None
    claimed_baseline_us: float | None = None
    retimed_baseline_us: float | None = None
    simulated: bool | None = None


def recheck_seeds(operator: str, count: int, search_seed: int = 0) -> list[int]:
    """The input seeds an operator's bests are rechecked on, never the seed the search was checked
    on. One set per operator: every policy's and seed's best faces the same fresh inputs, and the
    daemon makes their case data once. It draws the inputs from each seed keyed by its own secret,
    so a policy that knows the seeds still cannot know the inputs."""
    seeds: list[int] = []
    for i in range(count):
        digest = hashlib.sha256(f"recheck:{operator}#{i}".encode()).digest()
        seed = 1 + int.from_bytes(digest[:4], "big") % (2**31 - 2)
        seeds.append(seed + 1 if seed == search_seed else seed)
    return seeds


def check_draws(
    evaluate: Callable[[EvalRequest], EvalResult],
    request: Callable[[int], EvalRequest],
    seeds: Iterable[int],
) -> tuple[list[int], EvalResult | None]:
    """`request(seed)` compiled and checked (not timed) for each of `seeds` in turn, until one
    fails: the seeds checked, and the failing result (None when every seed passed)."""
    checked: list[int] = []
    for seed in seeds:
        stages = [Stage.COMPILE, Stage.CHECK]
        result = evaluate(request(seed).model_copy(update={"stages": stages}))
        checked.append(seed)
        if not result.ok:
            return checked, result
    return checked, None


def draw_failure(seed: int, draws: int, message: str) -> str:
    """A failure on a later draw of seeds 0..draws-1, named by the draw and its seed."""
    return f"input draw {seed + 1} of {draws} (seed {seed}): {message}"


def recheck(claim: Claim, client: DaemonClient, run_id: str, seeds: list[int]) -> Recheck:
    """The claimed candidate checked on each of `seeds` until one fails, in a run of its own
    charged to no policy. The daemon checks a search's candidates on fixed inputs so that they
    cache; a candidate right only for those (an index search that skips a core's share) fails on
    enough fresh draws. A daemon fault raises DaemonError: it says nothing about the candidate."""

    def evaluate(request: EvalRequest) -> EvalResult:
        result = client.evaluate(request)
        if result.daemon_fault:
            raise DaemonError(
                f"recheck of {claim.operator}: {result.status.value}: {result.message}"
            )
        return result

    client.open_run(run_id, len(seeds))
    draw = functools.partial(claim.request, run_id, claim.package)
    checked, failed = check_draws(evaluate, draw, seeds)
    if failed is None:
        return Recheck(seeds=checked, status=Status.OK.value)
    return Recheck(seeds=checked, status=failed.status.value, message=failed.message[:500])


def _within(claimed: float, measured: float, tolerance: float) -> bool:
    return abs(measured - claimed) <= tolerance * claimed


def check(claim: Claim, client: DaemonClient, seeds: list[int], tolerance: float) -> Verdict:
    run_id = f"validate-{uuid.uuid4().hex[:12]}"  # a new run: nothing is served from the cache
    client.open_run(run_id, len(seeds) + 1)  # each seed, and the baseline
    verdict = Verdict(
        line=claim.line,
        task=claim.task,
        operator=claim.operator,
        outcome="OK",
        claimed_best_us=claim.best_us,
        claimed_baseline_us=claim.baseline_us,
    )
    for seed in seeds:
        result = client.evaluate(claim.request(run_id, claim.package, seed))
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
        baseline = client.evaluate(claim.request(run_id, suite.resolve(claim.operator), seeds[0]))
        verdict.retimed_baseline_us = baseline.latency_us
        if not baseline.ok or not _within(claim.baseline_us, baseline.latency_us, tolerance):
            verdict.reasons.append(
                f"baseline re-timed {baseline.status.value} {baseline.latency_us} us, "
                f"recorded {claim.baseline_us:.3f} us"
            )
    if verdict.reasons:
        verdict.outcome = "FAIL"
    return verdict
