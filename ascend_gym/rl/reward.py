"""Rewards from evaluation outcomes: named components, weighted by a preset.

Components (each in [0, 1] but log_speedup):

| component | value |
|---|---|
| format | 1 when the completion parsed into a package |
| compiled | 1 when the package built (any status past COMPILE_ERROR / BUILD_TIMEOUT / REJECTED) |
| correct | 1 when every case passed (status OK) |
| log_speedup | ln(T_baseline / T_candidate) of a correct candidate, clipped to the preset's bounds; 0 otherwise |
| flag_* | 1 for each flag raised: rejected (the acceptance check refused the sources), race (RACE_DETECTED), timeout (BUILD_TIMEOUT or RUN_TIMEOUT) |

`total = sum(weight * component)`. An infrastructure outcome (BUSY, a lost daemon, our deadline,
a daemon error) is not a reward: `total` is None and `retryable` is set; trainers that accept None
(TRL) skip it, the others are told to resubmit. Every reward says it is simulated when the
latency came from the simulator, and names the performance model's fingerprint.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from ascend_core.protocol import EvalResult, Status
from ascend_gym.aclient import Outcome

NOT_BUILT = {Status.COMPILE_ERROR, Status.BUILD_TIMEOUT, Status.REJECTED}
FLAGS = {
    "rejected": {Status.REJECTED},
    "race": {Status.RACE_DETECTED},
    "timeout": {Status.BUILD_TIMEOUT, Status.RUN_TIMEOUT},
}


class RewardPreset(BaseModel):
    """Weights of the components; the bounds of the total follow from them (`bounds`)."""

    model_config = ConfigDict(frozen=True)

    name: str
    format: float = 0.0
    compiled: float = 0.0
    correct: float = 0.0
    log_speedup: float = 0.0
    log_speedup_clip: tuple[float, float] = (-1.0, 1.0)  # ln bounds: speedups 0.37x..2.72x
    flags: dict[str, float] = Field(default_factory=dict)  # flag -> weight (a penalty: < 0)

    def bounds(self) -> tuple[float, float]:
        """The least and the greatest total this preset can give."""
        lo_s, hi_s = (self.log_speedup * c for c in self.log_speedup_clip)
        flags = sum(min(0.0, w) for w in self.flags.values())
        positive = self.format + self.compiled + self.correct
        return min(0.0, lo_s) + flags, positive + max(0.0, hi_s, lo_s)


PRESETS = {
    p.name: p
    for p in (
        # The default: shaped steps toward a correct kernel, then the log speedup on top.
        RewardPreset(
            name="speedup",
            format=0.1,
            compiled=0.2,
            correct=0.7,
            log_speedup=1.0,
            flags={"rejected": -1.0, "race": -0.5},
        ),
        # Correctness only (a first stage of training, or operators the model times poorly).
        RewardPreset(name="correctness", format=0.1, compiled=0.3, correct=0.6),
        # Only a correct kernel earns anything (Kevin-style sparse reward).
        RewardPreset(name="sparse", correct=1.0, log_speedup=1.0, flags={"rejected": -1.0}),
    )
}
DEFAULT_PRESET = "speedup"


class Reward(BaseModel):
    """A scored completion. `total` None means no reward: an infrastructure fault, resubmit."""

    total: float | None
    components: dict[str, float] = {}
    preset: str
    status: str  # an EvalResult status, FORMAT_ERROR, or the fault ("fault:lost")
    retryable: bool = False
    message: str = ""
    latency_us: float | None = None
    baseline_us: float | None = None
    speedup: float | None = None
    simulated: bool = True
    model: str = ""  # the performance model's fingerprint (the daemon's "model" digest)
    simulator: str = ""  # the simulator sources' digest
    cache_hit: bool = False


def components(result: EvalResult | None, baseline_us: float | None, preset: RewardPreset) -> dict:
    """The named components of a parsed completion's result (None: it did not parse)."""
    if result is None:
        return {"format": 0.0, "compiled": 0.0, "correct": 0.0, "log_speedup": 0.0}
    correct = result.status is Status.OK
    speedup = 0.0
    if correct and baseline_us and result.latency_us:
        lo, hi = preset.log_speedup_clip
        speedup = min(hi, max(lo, math.log(baseline_us / result.latency_us)))
    out = {
        "format": 1.0,
        "compiled": float(result.status not in NOT_BUILT),
        "correct": float(correct),
        "log_speedup": speedup,
    }
    for flag, statuses in FLAGS.items():
        out[f"flag_{flag}"] = float(result.status in statuses)
    return out


def score(
    outcome: Outcome | None,
    baseline_us: float | None,
    preset: RewardPreset,
    format_error: str = "",
) -> Reward:
    """The reward of one completion: from its outcome, or from its format error (outcome None)."""
    if outcome is None:
        c = components(None, None, preset)
        return Reward(
            total=0.0, components=c, preset=preset.name, status="FORMAT_ERROR", message=format_error
        )
    if outcome.result is None:
        return Reward(
            total=None,
            preset=preset.name,
            status=f"fault:{outcome.fault.value if outcome.fault else 'unknown'}",
            retryable=outcome.retryable,
            message=outcome.message,
        )
    r = outcome.result
    c = components(r, baseline_us, preset)
    weights = {
        "format": preset.format,
        "compiled": preset.compiled,
        "correct": preset.correct,
        "log_speedup": preset.log_speedup,
        **{f"flag_{k}": w for k, w in preset.flags.items()},
    }
    correct_timed = r.ok and baseline_us and r.latency_us
    return Reward(
        total=sum(w * c.get(k, 0.0) for k, w in weights.items()),
        components=c,
        preset=preset.name,
        status=r.status.value,
        message=r.message,
        latency_us=r.latency_us,
        baseline_us=baseline_us,
        speedup=baseline_us / r.latency_us if correct_timed else None,
        simulated=r.simulated,
        model=r.fingerprint.get("model", ""),
        simulator=r.fingerprint.get("simulator", ""),
        cache_hit=r.cache_hit,
    )
