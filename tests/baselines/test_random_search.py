"""Random search through a Gymnasium wrapper: a policy reads the episode via `episode(env)`."""

from __future__ import annotations

import gymnasium as gym

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from ascend_gym.policies import episode
from baselines.random_search import RandomSearch


def test_random_search_runs_on_a_wrapped_env(daemon):
    env = gym.wrappers.RecordEpisodeStatistics(
        gym.make(
            "ascend_gym:AscendOp-v0",
            operator="level1/add",
            budget=2,
            daemon=daemon,
            run_id="t-random-wrapped",
        )
    )
    try:
        result = RandomSearch().run(env, seed=3)
        view = episode(env)
        assert view.run_id == "t-random-wrapped" and view.budget == 2
        assert result.evaluations == view.spent == 2 == result.trajectory[-1].evaluation
        assert result.best_us == view.best_us <= result.baseline_us == view.baseline_us
        assert env.episode_count == 1  # the wrapper saw the episode end at the budget
    finally:
        env.close()
