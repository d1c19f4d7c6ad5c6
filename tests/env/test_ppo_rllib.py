"""One tiny PPO iteration (RLlib new API stack, action masking) on the discrete env."""

from __future__ import annotations

import pytest

from baselines.ppo_rllib import PPORunConfig, train


@pytest.mark.slow  # RLlib's start-up dominates; the env's conformance tests stay in the default run
def test_one_ppo_iteration():
    """On train's own daemon, which requires run tokens: every env opens the runs it uses."""
    cfg = PPORunConfig(
        ops="level1/add",
        iterations=1,
        budget=2,
        env_runners=1,
        train_batch=32,
        minibatch=16,
        epochs=1,
        hidden=16,
    )
    rows = train(cfg)
    assert len(rows) == 1 and rows[0]["env_steps"] >= 32 and rows[0]["simulated"]
    assert rows[0]["episodes"] >= 1 and rows[0]["best_speedup_mean"] >= 1.0
