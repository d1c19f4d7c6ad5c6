"""The next turn's message to the model: what its last submission did, in a bounded text."""

from __future__ import annotations

import re

from ascend_core.protocol import EvalResult, Profile, Status
from ascend_gym.rl.reward import Reward

# Logs shown to the model: the compiler's and the acceptance check's, which never see a case's
# data. What ran on the inputs (a run's output, a case's message) is not shown: a kernel could
# print the secret inputs, and a mismatch message quotes expected values (issue 50).
BUILD_FAILURES = {Status.COMPILE_ERROR, Status.BUILD_TIMEOUT, Status.REJECTED}

PIPES = {
    "aiv_vec_ratio": "the vector unit",
    "aiv_scalar_ratio": "the scalar unit",
    "aiv_mte2_ratio": "MTE2 (GM -> UB copies)",
    "aiv_mte3_ratio": "MTE3 (UB -> GM copies)",
}


def bottleneck(profile: Profile) -> str:
    """The pipe busiest over the kernel's time, from the profile's ratios."""
    ratios = {k: getattr(profile, k) for k in PIPES}
    pipe = max(ratios, key=ratios.get)
    return f"{PIPES[pipe]} ({ratios[pipe]:.0%} of the kernel's time)"


def render(
    reward: Reward,
    result: EvalResult | None = None,
    best_us: float | None = None,
    max_chars: int = 1500,
    max_error_lines: int = 12,
) -> str:
    """Status, first build errors, per-case error, latency, speedup against the baseline and the
    best so far, the bottleneck; cut to `max_chars`. Simulated figures say so."""
    if reward.status == "FORMAT_ERROR":
        return _cut(f"Format error: {reward.message}", max_chars)
    if reward.total is None:
        return _cut(
            f"Not evaluated (infrastructure: {reward.status}); submit again. {reward.message}",
            max_chars,
        )
    lines = [f"Status: {reward.status}. Reward {reward.total:.3f} ({_components(reward)})."]
    if result is not None and result.status in BUILD_FAILURES:
        errors = (result.message + "\n" + result.log_tail).strip().splitlines()
        firsts = [e for e in errors if "error" in e.lower()] or errors
        lines += ["First errors:", *firsts[:max_error_lines]]
    elif result is not None and not result.ok and result.message:
        lines.append(f"Message: {_without_values(result.message.splitlines()[0])}")
    for case in (result.cases if result else [])[:8]:
        errs = (
            f"max abs error {case.max_abs_error:.3g}, max rel error {case.max_rel_error:.3g}"
            if case.max_abs_error is not None and case.max_rel_error is not None
            else "not run"
        )
        lines.append(f"case {case.name}: {'passed' if case.passed else 'FAILED'}; {errs}")
    if reward.latency_us is not None:
        label = "simulated Ascend 910B latency" if reward.simulated else "latency"
        line = f"{label}: {reward.latency_us:.2f} us"
        if reward.speedup is not None:
            line += f"; {reward.speedup:.3f}x the baseline ({reward.baseline_us:.2f} us)"
        if best_us and reward.latency_us:
            line += f"; {best_us / reward.latency_us:.3f}x your best so far ({best_us:.2f} us)"
        lines.append(line + ".")
    if result is not None and result.profile is not None and result.ok:
        lines.append(f"Bottleneck: {bottleneck(result.profile)}.")
    if reward.simulated:
        lines.append("(Simulated: a CPU model of the 910B, not a measurement on an NPU.)")
    return _cut("\n".join(lines), max_chars)


def _without_values(line: str) -> str:
    """A check's message without the element it quotes ("first at flat index i: got g,
    expected w"): the model learns how many elements are wrong, not what they should be."""
    return re.split(r"; first at |: got |, expected ", line)[0]


def _components(reward: Reward) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in reward.components.items() if v)


def _cut(text: str, max_chars: int) -> str:
    return text if len(text) <= max_chars else text[: max_chars - 15] + "\n[... truncated]"
