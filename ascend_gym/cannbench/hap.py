"""cann-bench's score (docs/spec/benchmark_spec.md 4.2 of cann-bench, "bench.tex" Eq. 3-5).

Per case, the hardware-anchored performance score
    score_i = (T_base - T_HW) / ((T_cand - T_HW) + (T_base - T_HW))
is 0.5 at the baseline, 1.0 at the hardware floor T_HW, and tends to 0 as T_cand grows. Per
operator,
    score = 100 [w_c d_cr + sum_i d_i (w_f + w_p score_i) / N],  (w_c, w_f, w_p) = (0.2, 0.3, 0.5)
with d_cr = 0 when the submission does not build, else the share of its N cases without a
runtime (non-precision) fault, and d_i whether case i passes the precision check. A level's
score is the sum of its operators'.

Here T_cand is the simulator's latency (simulated), T_base and T_HW cann-bench's per-hardware
metadata (measured and derived on NPUs): a candidate simulated faster than T_HW is flagged, since
a correct kernel cannot beat the floor and one that does points at the model or at the candidate.
"""

from __future__ import annotations

import math

from pydantic import BaseModel

W_COMPILE, W_PRECISION, W_PERF = 0.2, 0.3, 0.5


def case_score(t_cand: float, t_base: float | None, t_hw: float | None) -> float | None:
    """Eq. 3; None where the metadata gives no baseline above the floor to anchor on, or where a
    candidate far below the floor makes the denominator vanish."""
    if t_base is None or t_hw is None or t_base <= t_hw:
        return None
    denominator = (t_cand - t_hw) + (t_base - t_hw)
    return (t_base - t_hw) / denominator if denominator > 0 else None


class CaseScore(BaseModel):
    case: str  # our case name
    case_id: str  # cann-bench's
    status: str  # the evaluation's (OK, WRONG_ANSWER, RUNTIME_ERROR, ...)
    latency_us: float | None = None  # simulated
    baseline_us: float | None = None  # cann-bench metadata (NPU)
    t_hw_us: float | None = None
    hap: float | None = None  # score_i

    @property
    def passed(self) -> bool:
        return self.status == "OK"

    @property
    def runtime_fault(self) -> bool:
        """A fault other than a numerical one: it costs the case its compile/run share."""
        return self.status not in ("OK", "WRONG_ANSWER")

    @property
    def below_floor(self) -> bool:
        """Passing and simulated faster than the hardware floor: a model or integrity alarm."""
        return (
            self.passed
            and None not in (self.latency_us, self.t_hw_us)
            and (self.latency_us < self.t_hw_us)
        )

    @property
    def speedup(self) -> float | None:
        """cann-bench's diagnostic speedup: its baseline over the (simulated) candidate."""
        if self.passed and self.baseline_us and self.latency_us:
            return self.baseline_us / self.latency_us
        return None


class OperatorScore(BaseModel):
    op: str
    level: int
    built: bool  # the submission or generated package compiled
    generated: bool = True  # a package existed to evaluate (generation may have failed)
    message: str = ""
    cases: list[CaseScore] = []
    n_cases: int  # N: every case of the task, those the importer left out included

    @property
    def correct(self) -> bool:
        return (
            self.built
            and bool(self.cases)
            and all(c.passed for c in self.cases)
            and (len(self.cases) == self.n_cases)
        )

    @property
    def mean_hap(self) -> float | None:
        """The performance term's mean: score_i over the N cases, 0 for a failing case; None if
        a passing case has no metadata to score against."""
        if not self.built:
            return 0.0
        scores = [c.hap for c in self.cases if c.passed]
        if any(s is None for s in scores):
            return None
        return sum(scores) / self.n_cases

    @property
    def score(self) -> float | None:
        """Eq. 4 (None where a passing case has no score_i)."""
        if not self.built:
            return 0.0
        if self.mean_hap is None:
            return None
        faults = sum(c.runtime_fault for c in self.cases) + self.n_cases - len(self.cases)
        passing = sum(c.passed for c in self.cases)
        return 100 * (
            W_COMPILE * (self.n_cases - faults) / self.n_cases
            + W_PRECISION * passing / self.n_cases
            + W_PERF * self.mean_hap
        )

    @property
    def speedup(self) -> float | None:
        """Geometric mean of the passing cases' diagnostic speedups (None if not all passed)."""
        ups = [c.speedup for c in self.cases]
        if not self.correct or any(u is None for u in ups):
            return None
        return math.exp(sum(math.log(u) for u in ups) / len(ups))
