"""Random search: each step sets one random @tune number of the tiling program to a random value
of its grid, starting from the best correct candidate so far."""

from __future__ import annotations

import random
from typing import Any

from ascend_core import tune
from ascend_gym.policies import PolicyConfig, PolicyResult, StepRecord, episode


class RandomSearchConfig(PolicyConfig):
    """Random search has no settings: any key given is a mistake."""


class RandomSearch:
    name = "random"

    def __init__(self, **config: Any):
        self.config = RandomSearchConfig(**config)

    def run(self, env: Any, seed: int) -> PolicyResult:
        rng = random.Random(seed)
        env.reset(seed=seed)
        view = episode(env)
        trajectory = []
        truncated = False
        # Cache hits are free, so a small grid could repeat forever: bound the attempts too.
        for _ in range(20 * view.budget):
            if truncated:
                break
            tiling, note = tune.random_mutation(view.best_package.tiling_source, rng)
            _, _, _, truncated, info = env.step({"tiling": tiling, "kernel": ""})
            trajectory.append(StepRecord.of(info, note))
        return PolicyResult.of_episode(self.name, view, seed, trajectory=trajectory)
