"""Reward presets: components, totals and bounds; an infrastructure fault is never a reward."""

from __future__ import annotations

import math

import pytest

from ascend_core.protocol import EvalResult, Status
from ascend_gym.aclient import Fault, Outcome
from ascend_gym.rl.reward import PRESETS, score

FP = {"model": "m" * 24, "simulator": "s" * 24}


def outcome(status: Status, latency_us: float | None = None) -> Outcome:
    result = EvalResult(request_id="r", status=status, latency_us=latency_us, fingerprint=FP)
    return Outcome(index=0, request_id="r", result=result)


def test_a_correct_faster_kernel_earns_every_component():
    r = score(outcome(Status.OK, 50.0), 100.0, PRESETS["speedup"])
    assert r.components["format"] == r.components["compiled"] == r.components["correct"] == 1.0
    assert r.components["log_speedup"] == pytest.approx(math.log(2.0))
    assert r.total == pytest.approx(1.0 + math.log(2.0))
    assert (r.speedup, r.simulated, r.model) == (2.0, True, FP["model"])


def test_the_log_speedup_is_clipped():
    preset = PRESETS["speedup"]
    fast = score(outcome(Status.OK, 1.0), 1000.0, preset)
    assert fast.components["log_speedup"] == preset.log_speedup_clip[1]
    assert fast.total == pytest.approx(preset.bounds()[1])


@pytest.mark.parametrize(
    "status, compiled, flags",
    [
        (Status.COMPILE_ERROR, 0.0, {}),
        (Status.WRONG_ANSWER, 1.0, {}),
        (Status.RACE_DETECTED, 1.0, {"flag_race": 1.0}),
        (Status.RUN_TIMEOUT, 1.0, {"flag_timeout": 1.0}),
        (Status.REJECTED, 0.0, {"flag_rejected": 1.0}),
    ],
)
def test_failures_are_scored_by_their_status(status, compiled, flags):
    preset = PRESETS["speedup"]
    r = score(outcome(status), 100.0, preset)
    assert r.components["compiled"] == compiled and r.components["correct"] == 0.0
    for flag in ("flag_race", "flag_timeout", "flag_rejected"):
        assert r.components[flag] == flags.get(flag, 0.0)
    expected = preset.format + preset.compiled * compiled
    expected += sum(preset.flags.get(f.removeprefix("flag_"), 0.0) for f in flags)
    assert r.total == pytest.approx(expected)
    lo, hi = preset.bounds()
    assert lo <= r.total <= hi


@pytest.mark.parametrize("fault", [Fault.BUSY, Fault.LOST, Fault.DEADLINE, Fault.DAEMON_ERROR])
def test_an_infrastructure_fault_is_no_reward(fault):
    r = score(Outcome(index=0, request_id="r", fault=fault, message="m"), 100.0, PRESETS["speedup"])
    assert r.total is None and r.retryable and r.status == f"fault:{fault.value}"


def test_a_format_error_is_the_completions_own_zero():
    r = score(None, None, PRESETS["speedup"], "no source block")
    assert (r.total, r.status, r.retryable) == (0.0, "FORMAT_ERROR", False)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_stays_within_its_bounds(name):
    preset = PRESETS[name]
    lo, hi = preset.bounds()
    totals = [
        score(outcome(s, lat), 100.0, preset).total
        for s in Status
        if s not in (Status.BUSY, Status.DAEMON_ERROR)
        for lat in (1.0, 100.0, 10_000.0)
    ]
    assert all(lo - 1e-9 <= t <= hi + 1e-9 for t in totals)
    assert max(totals) == pytest.approx(hi)
