"""Metrics of docs/design.md 3.4.

speedup(op) = T_baseline / T_best_correct_candidate, same shape, backend and soc; a policy that
found no correct candidate (or whose run failed) keeps the baseline, speedup 1.0. GM = geometric
mean over all ops of the set; fast_p = |{op : speedup > p}| / |all ops| (strict, denominator all
ops), reported per level and overall for p in FAST_P, plus best-so-far speedup against evaluations.

With several seeds, each seed is one complete run of the policy over the op set: GM and fast_p
are computed per seed and the table reports their mean (and spread) over seeds.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel

from ascend_core import suite
from ascend_gym.policies import ModelAccount, StepRecord
from ascend_gym.records import SweepRecord, by_key

FAST_P = (1.0, 1.2, 1.4, 2.0)
OVERALL = "all"


def speedup(baseline_us: float, best_us: float | None) -> float:
    """Speedup of an op's best correct candidate; a policy that found none keeps the baseline."""
    if best_us is None or best_us <= 0 or baseline_us <= 0:
        return 1.0
    return baseline_us / best_us


def geomean(values: Iterable[float]) -> float:
    vals = list(values)
    if not vals:
        raise ValueError("geometric mean of no ops")
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def fast_p(speedups: Iterable[float], p: float) -> float:
    vals = list(speedups)
    if not vals:
        raise ValueError("fast_p of no ops")
    return sum(1 for s in vals if s > p) / len(vals)


def summarize(speedups: list[float]) -> dict[str, float]:
    """GM and fast_p for every p of the report."""
    return {
        "ops": len(speedups),
        "gm": geomean(speedups),
        **{f"fast_{p}": fast_p(speedups, p) for p in FAST_P},
    }


# ---- records of a sweep ------------------------------------------------------------------------

_LEVEL = re.compile(r"(?:^|/)level(\d)/")


def level_of(operator: str, level: int | None = None) -> int:
    """An op's level: recorded by the sweep, else read from its address (`.../level2/softmax`),
    else from its spec (an operator of one's own, given as a directory, whose task left no level:
    its baseline failed, or its worker died)."""
    if level:
        return int(level)
    if m := _LEVEL.search(operator):
        return int(m.group(1))
    try:
        return suite.resolve(operator).spec.level
    except (KeyError, ValueError, OSError) as e:
        raise ValueError(f"cannot tell the level of {operator!r}: {e}") from None


def record_speedup(record: SweepRecord | None) -> float:
    """A (policy, op, seed) record's speedup; a missing or failed task counts as the baseline, and
    so does one whose best candidate was wrong on fresh inputs."""
    if record is None or not record.ok or record.baseline_us is None or record.wrong:
        return 1.0
    return speedup(record.baseline_us, record.best_us)


def best_speedups(records: Iterable[SweepRecord]) -> dict[str, float]:
    """Each operator's best speedup over the records (policies, seeds, benches together)."""
    best: dict[str, float] = {}
    for r in records:
        best[r.operator] = max(best.get(r.operator, 1.0), record_speedup(r))
    return best


class Row(BaseModel):
    """One cell group of the Table-3-style table: a policy on a level (or on all ops)."""

    policy: str
    level: str  # "1", "2", "3" or OVERALL
    ops: int
    seeds: int
    missing: int  # (op, seed) tasks with no record yet; they count as speedup 1.0
    failed: int  # tasks whose policy raised; they count as speedup 1.0
    infra: int = 0  # tasks a daemon or worker failed; they count as 1.0 and are retried on rerun
    idle: int = 0  # finished tasks that spent no evaluation: their 1.0 is no search at all
    wrong: int = 0  # finished tasks whose faster best failed on fresh inputs: counted as 1.0
    gm: float
    gm_std: float
    fast: dict[str, float]  # "1.0" -> mean over seeds of fast_1.0


def table_rows(
    records: list[SweepRecord], ops: Sequence[str], policies: Sequence[str], seeds: int
) -> list[Row]:
    """GM and fast_p per policy, per level and overall, over the sweep's full op set.

    `ops` is the set the sweep was asked to cover: an op a policy has no record for still counts,
    as 1.0, so a policy cannot look better by failing to finish its hard ops.
    """
    index = by_key(records)
    groups = level_groups(ops, records) + [(OVERALL, list(ops))]
    rows = []
    for policy in policies:
        for level, group in groups:
            per_seed_gm, per_seed_fast = [], {p: [] for p in FAST_P}
            missing = failed = infra = idle = wrong = 0
            for seed in range(seeds):
                recs = [index.get((policy, op, seed)) for op in group]
                missing += sum(r is None for r in recs)
                failed += sum(r is not None and not r.ok and not r.infra_failed for r in recs)
                infra += sum(r is not None and r.infra_failed for r in recs)
                idle += sum(r is not None and r.ok and spent(r) == 0 for r in recs)
                wrong += sum(r is not None and r.ok and r.wrong for r in recs)
                values = [record_speedup(r) for r in recs]
                per_seed_gm.append(geomean(values))
                for p in FAST_P:
                    per_seed_fast[p].append(fast_p(values, p))
            rows.append(
                Row(
                    policy=policy,
                    level=level,
                    ops=len(group),
                    seeds=seeds,
                    missing=missing,
                    failed=failed,
                    infra=infra,
                    idle=idle,
                    wrong=wrong,
                    gm=statistics.fmean(per_seed_gm),
                    gm_std=statistics.pstdev(per_seed_gm),
                    fast={str(p): statistics.fmean(v) for p, v in per_seed_fast.items()},
                )
            )
    return rows


def level_groups(ops: Sequence[str], records: list[SweepRecord]) -> list[tuple[str, list[str]]]:
    """The ops of each level ("1", "2", "3"), in level order."""
    known = {r.operator: r.level for r in records if r.level}
    levels: dict[str, list[str]] = {}
    for op in ops:
        levels.setdefault(str(level_of(op, known.get(op))), []).append(op)
    return sorted(levels.items())


class Paired(BaseModel):
    """One policy's records against another's, operator by operator: each operator's speedup is the
    geometric mean over its seeds, and only operators both ran count."""

    ops: int
    ratio: float  # GM of the first's speedups over the second's
    low: float  # 95 % bootstrap interval of the ratio, the operators resampled
    high: float
    ahead: int  # operators where the first's speedup is the larger
    tied: int
    behind: int


def paired(
    first: Iterable[SweepRecord], second: Iterable[SweepRecord], resamples: int = 10_000
) -> Paired | None:
    """Whether a GM lead holds operator by operator: a lead of a few thousandths over 222
    operators may be one operator's luck, which the seeds' spread of each GM does not show.
    The bootstrap's draws are fixed (seed 0), so the interval reads the same every time."""

    def per_op(records: Iterable[SweepRecord]) -> dict[str, float]:
        logs: dict[str, list[float]] = {}
        for r in records:
            logs.setdefault(r.operator, []).append(math.log(record_speedup(r)))
        return {op: sum(v) / len(v) for op, v in logs.items()}

    a, b = per_op(first), per_op(second)
    ops = sorted(a.keys() & b.keys())
    if not ops:
        return None
    diff = np.array([a[op] - b[op] for op in ops])
    tie = np.abs(diff) < 1e-9  # the same best found: latencies are deterministic
    means = diff[np.random.default_rng(0).integers(0, len(ops), (resamples, len(ops)))].mean(1)
    low, high = np.exp(np.percentile(means, [2.5, 97.5]))
    return Paired(
        ops=len(ops),
        ratio=math.exp(diff.mean()),
        low=float(low),
        high=float(high),
        ahead=int(((diff > 0) & ~tie).sum()),
        tied=int(tie.sum()),
        behind=int(((diff < 0) & ~tie).sum()),
    )


# ---- head and body: what an improvement is made of ---------------------------------------------

# The run-to-run noise of a device measurement: an improvement counts in the floored fast_p only
# when the latency falls by more than both (docs/performance_model.md, Reports: head and body).
NOISE_FLOOR_REL = 0.02
NOISE_FLOOR_US = 0.5


def above_noise(baseline_us: float, best_us: float) -> bool:
    """Whether `best_us` is faster than `baseline_us` by more than the noise floor."""
    return baseline_us - best_us > max(NOISE_FLOOR_REL * baseline_us, NOISE_FLOOR_US)


def floored_speedup(record: SweepRecord | None) -> float:
    """record_speedup, but 1.0 for an improvement within the noise floor."""
    s = record_speedup(record)
    return s if s > 1.0 and above_noise(record.baseline_us, record.best_us) else min(s, 1.0)


def body_speedup(record: SweepRecord | None) -> float | None:
    """The kernel body's speedup, the launch head taken out of both latencies (the model reports
    its head): None when a head is unknown. A task without a correct faster best keeps 1.0."""
    if record_speedup(record) == 1.0:
        return 1.0
    if record.baseline_head_us is None or record.best_head_us is None:
        return None
    return speedup(
        record.baseline_us - record.baseline_head_us, record.best_us - record.best_head_us
    )


class HeadBody(BaseModel):
    """One policy's speedups split into head and body, over the operators whose heads are known
    (each operator's speedup the geometric mean over its seeds)."""

    policy: str
    ops: int  # operators with a record
    known: int  # of which every seed's heads are known
    gm: float  # end-to-end, over the `known` operators
    gm_body: float  # the kernel body alone, over the same operators
    fast: float  # fast_1.0 end to end, over every operator with a record
    fast_floored: float  # fast_1.0 counting only improvements above the noise floor


def _per_op(
    by_op: dict[str, list[SweepRecord]], fn: Callable[[SweepRecord], float | None]
) -> dict[str, float]:
    """Each operator's geometric mean over its seeds of `fn`; operators where it is None left out."""
    values = {op: [fn(r) for r in rs] for op, rs in by_op.items()}
    return {op: geomean(v) for op, v in values.items() if None not in v}


def head_body(records: list[SweepRecord], policies: Sequence[str]) -> list[HeadBody]:
    out = []
    for policy in policies:
        by_op: dict[str, list[SweepRecord]] = {}
        for r in records:
            if r.policy == policy:
                by_op.setdefault(r.operator, []).append(r)
        if not by_op:
            continue

        e2e, body, floored = (
            _per_op(by_op, fn) for fn in (record_speedup, body_speedup, floored_speedup)
        )
        known = sorted(body)
        out.append(
            HeadBody(
                policy=policy,
                ops=len(by_op),
                known=len(known),
                gm=geomean(e2e[op] for op in known) if known else 1.0,
                gm_body=geomean(body[op] for op in known) if known else 1.0,
                fast=fast_p(e2e.values(), 1.0),
                fast_floored=fast_p(floored.values(), 1.0),
            )
        )
    return out


# ---- budget accounting -------------------------------------------------------------------------


def spent(record: SweepRecord) -> int:
    """Evaluations a task spent: the ledger's count where there is one (a failed task spent what
    it spent, though its record counts none), else the policy's."""
    return record.ledger.evaluations if record.ledger is not None else record.evaluations


class Account(ModelAccount):
    """What one policy spent over the tasks of a sweep: evaluations charged (counted by the policy
    and checked against the daemon ledger per task) and its model account, summed."""

    policy: str
    proposer: str
    tasks: int  # finished tasks (a failed one included: it spent what it spent)
    idle: int  # finished tasks that spent no evaluation (nothing to propose: no search)
    evaluations: int
    budget: int  # evaluations the finished tasks were given


def accounts(
    records: list[SweepRecord],
    policies: Sequence[str],
    attempts: list[SweepRecord] | None = None,
) -> list[Account]:
    """Each policy's account over its tasks' `records`; the model account over `attempts` where
    given (every record written, a failed attempt a rerun replaced included: its calls were
    made and paid for)."""
    out = []
    for policy in policies:
        rs = [r for r in records if r.policy == policy]
        asked = [r for r in (records if attempts is None else attempts) if r.policy == policy]
        out.append(
            Account(
                policy=policy,
                proposer=", ".join(sorted({r.proposer for r in rs if r.proposer})) or "-",
                model=", ".join(sorted({r.model for r in asked if r.model})) or "-",
                tasks=len(rs),
                idle=sum(r.ok and spent(r) == 0 for r in rs),
                evaluations=sum(spent(r) for r in rs),
                budget=sum(r.budget for r in rs),
                **{
                    name: sum(getattr(r, name) for r in asked)
                    for name, info in ModelAccount.model_fields.items()
                    if info.annotation is int  # the counts, not the model's name nor why it stopped
                },
            )
        )
    return out


# ---- where a search found nothing --------------------------------------------------------------

# Why a finished task ended with nothing faster than its baseline, in the order they are told apart
# (the last first: a faster best that fails on fresh inputs is no speedup).
STALLS = (
    "spent no evaluation",
    "every candidate failed",
    "every passing candidate timed as the baseline",
    "no passing candidate faster",
    "faster best wrong on fresh inputs",
)


def stall_causes(records: list[SweepRecord]) -> tuple[str, ...]:
    """The STALLS a sweep's records tell apart: records from before the fresh-input recheck carry
    none, and a column of zeros for them would say their picks held."""
    return STALLS if any(r.recheck is not None for r in records) else STALLS[:-1]


def stall(record: SweepRecord) -> str | None:
    """Why a finished task found nothing faster than its baseline (an entry of STALLS); None when
    it found something or did not finish. Timed as the baseline: whatever the policy changed did
    not move the latency at all, a knob the operator ignores or a rewrite of work not timed."""
    if not record.ok or record.baseline_us is None or record_speedup(record) > 1.0:
        return None
    if record.wrong:
        return STALLS[4]
    if spent(record) == 0:
        return STALLS[0]
    timed = [s.latency_us for s in record.trajectory if s.status == "OK" and s.latency_us]
    if not timed:
        return STALLS[1]
    if all(math.isclose(t, record.baseline_us, rel_tol=1e-9) for t in timed):
        return STALLS[2]
    return STALLS[3]


class Stalls(BaseModel):
    """One policy's finished tasks that found nothing faster, by cause, and its failing
    candidates by status."""

    policy: str
    tasks: int  # finished tasks
    causes: dict[str, int]  # STALLS entry -> tasks
    candidates: int  # candidates evaluated (cache hits left out)
    failed: dict[str, int]  # failing status -> candidates, most frequent first


def stalls(records: list[SweepRecord], policies: Sequence[str]) -> list[Stalls]:
    out = []
    for policy in policies:
        rs = [r for r in records if r.policy == policy and r.ok]
        causes = {cause: 0 for cause in STALLS}
        for r in rs:
            if cause := stall(r):
                causes[cause] += 1
        steps = [s for r in rs for s in r.trajectory if not s.cache_hit]
        failed = Counter(s.status.value for s in steps if s.status != "OK")
        out.append(
            Stalls(
                policy=policy,
                tasks=len(rs),
                causes=causes,
                candidates=len(steps),
                failed=dict(failed.most_common()),
            )
        )
    return out


# ---- a staged search's stages ------------------------------------------------------------------

STAGES = ("stage1", "stage2")
_PHASE_NOTE = re.compile(r"stage\s*(ii|2|i|1)\b", re.IGNORECASE)


def phase_of(step: StepRecord | dict[str, Any]) -> str:
    """ "stage1" / "stage2" from a step's phase field, or from its note; "" when it has none."""
    if isinstance(step, dict):
        text = step.get("phase") or step.get("note") or ""
    else:
        text = step.phase or step.note
    m = _PHASE_NOTE.search(text)
    if not m:
        return ""
    return "stage2" if m.group(1).lower() in ("ii", "2") else "stage1"


class Stages(BaseModel):
    """One staged policy's charged evaluations per stage, and per stage its finished tasks whose
    best candidate (faster than the baseline) that stage found first."""

    policy: str
    tasks: int  # finished tasks
    evaluations: dict[str, int]  # STAGES entry -> candidates evaluated (cache hits left out)
    best_from: dict[str, int]  # STAGES entry -> tasks


def stages(records: list[SweepRecord], policies: Sequence[str]) -> list[Stages]:
    """The policies whose steps carry a stage (AscendOptimizer), in `policies`' order."""
    out = []
    for policy in policies:
        rs = [r for r in records if r.policy == policy and r.ok]
        if not any(phase_of(s) for r in rs for s in r.trajectory):
            continue
        evaluations = {stage: 0 for stage in STAGES}
        best_from = {stage: 0 for stage in STAGES}
        for r in rs:
            for s in r.trajectory:
                if not s.cache_hit and (phase := phase_of(s)):
                    evaluations[phase] += 1
            if record_speedup(r) > 1.0:
                first = next(
                    (s for s in r.trajectory if s.status == "OK" and s.latency_us == r.best_us),
                    None,
                )
                if first is not None and (phase := phase_of(first)):
                    best_from[phase] += 1
        out.append(
            Stages(policy=policy, tasks=len(rs), evaluations=evaluations, best_from=best_from)
        )
    return out


# ---- best-so-far curves ------------------------------------------------------------------------


def best_so_far(record: SweepRecord) -> list[float]:
    """Best speedup after 0..budget evaluations of one (policy, op, seed) run, along the order in
    which its candidates were evaluated, for every policy alike (Best-of-N's average over sample
    orderings, `expected_speedup`, stays in its record and is not mixed into the figure). After
    the last recorded step the curve stays flat: an unspent budget cannot find anything.
    """
    budget = record.budget
    if not record.ok or record.baseline_us is None:
        return [1.0] * (budget + 1)
    curve = [1.0] * (budget + 1)
    for step in record.trajectory:
        e = min(step.evaluation, budget)
        curve[e] = max(curve[e], speedup(record.baseline_us, step.best_us))
    for e in range(1, budget + 1):
        curve[e] = max(curve[e], curve[e - 1])
    return curve


def expected_best_of_k(speedups: Sequence[float]) -> list[float]:
    """E[best speedup after the first k samples] over all orderings of `speedups`, k = 0..N.

    The baseline is always kept, so a sample counts as max(1, its speedup) and k = 0 gives 1.0.
    Sorted descending as v_1 >= ... >= v_N, the best of a random k-subset is v_i with probability
    C(N - i, k - 1) / C(N, k).
    """
    ordered = sorted((max(1.0, s) for s in speedups), reverse=True)
    n = len(ordered)
    out = [1.0]
    for k in range(1, n + 1):
        out.append(
            sum(v * math.comb(n - i, k - 1) for i, v in enumerate(ordered, start=1))
            / math.comb(n, k)
        )
    return out


def curve_band(curves: list[list[float]]) -> tuple[list[float], list[float], list[float]]:
    """Geometric mean over ops of per-(op) curves, then mean, min and max over seeds.

    `curves[seed]` must already be the per-seed geometric mean over ops (see `seed_curves`).
    """
    length = min(len(c) for c in curves)
    cols = [[c[i] for c in curves] for i in range(length)]
    return [statistics.fmean(c) for c in cols], [min(c) for c in cols], [max(c) for c in cols]


def seed_curves(
    records: list[SweepRecord], ops: Sequence[str], policy: str, seeds: int, budget: int
) -> list[list[float]]:
    """Per seed: the geometric mean over all ops of the best-so-far speedup (missing ops = 1.0)."""
    index = by_key(records)
    out = []
    for seed in range(seeds):
        per_op = []
        for op in ops:
            r = index.get((policy, op, seed))
            per_op.append(best_so_far(r)[: budget + 1] if r else [1.0] * (budget + 1))
        out.append([geomean(c[i] for c in per_op) for i in range(budget + 1)])
    return out
