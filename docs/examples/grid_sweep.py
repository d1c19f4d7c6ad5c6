"""A policy of one's own for `ascend-gym bench --policies grid_sweep:GridSweep` (with this
directory on PYTHONPATH): every value of the tiling program's first `@tune` knob, in order, each
set on the baseline. docs/env.md, "Your own policy", explains the contract."""

from __future__ import annotations

from typing import Any

from ascend_core import tune
from ascend_gym.policies import PolicyResult, StepRecord, episode


class GridSweep:
    name = "grid_sweep"

    def __init__(self, first: int = 0, **unknown: Any):
        if unknown:  # a misspelt setting is a mistake, not a default run
            raise TypeError(f"GridSweep has no setting {', '.join(sorted(unknown))}")
        self.first = first  # where in the knob's grid to start

    def run(self, env: Any, seed: int) -> PolicyResult:
        env.reset(seed=seed)
        view = episode(env)  # the episode, read-only: package, budget, spent, latencies
        tiling = view.package.tiling_source
        knobs = tune.find_tunables(tiling)
        trajectory = []
        for value in knobs[0].grid()[self.first :] if knobs else []:
            candidate = tune.set_value(tiling, knobs[0].name, value)
            # The daemon charges every new candidate; a repeat is a free cache hit.
            _, _, _, truncated, info = env.step({"tiling": candidate, "kernel": ""})
            trajectory.append(StepRecord.of(info, f"{knobs[0].name} = {value}"))
            if truncated:  # the budget is spent
                break
        # The env's best and the evaluations it charged, as the episode ends.
        return PolicyResult.of_episode(self.name, view, seed, trajectory=trajectory)
