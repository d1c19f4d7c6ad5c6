"""Env fixtures: one discrete and one code-mode env on the session daemon."""

from __future__ import annotations

import gymnasium as gym
import pytest

import ascend_gym  # noqa: F401  (registers the env ids)


@pytest.fixture()
def make(daemon):
    """`make(**kwargs)` builds AscendOp-v0 on the session daemon and closes it after the test."""
    made = []

    def _make(env_id: str = "AscendOp-v0", **kwargs):
        env = gym.make(env_id, daemon=daemon, **{"budget": 3, **kwargs})
        made.append(env)
        return env

    yield _make
    for env in made:
        env.close()
