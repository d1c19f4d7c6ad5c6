"""Metrics of DESIGN 3.4.

speedup(op) = T_baseline / T_best_correct_candidate (1.0 when no correct candidate was found);
GM = geometric mean over all ops of the set; fast_p = |{op : speedup > p}| / |all ops| (strict,
denominator all ops).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

FAST_P = (1.0, 1.2, 1.4, 2.0)


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
    return {"ops": len(speedups), "gm": geomean(speedups), **{f"fast_{p}": fast_p(speedups, p) for p in FAST_P}}
