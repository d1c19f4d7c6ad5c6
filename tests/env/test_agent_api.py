"""What agent authors touch first: ansi rendering, refused malformed actions, make and validate."""

from __future__ import annotations

import numpy as np
import pytest

import ascend_gym
from ascend_gym import rewrites


def test_render_ansi_shows_sources_and_last_result(make):
    env = make(mode="discrete", render_mode="ansi")
    env.reset(seed=0)
    env.step(rewrites.index("tile:larger"))
    text = env.render()
    base = env.unwrapped
    assert "last result: OK" in text and f"{base.best_us:.2f} us" in text
    assert base.package.tiling_source.strip() in text and base.package.kernel_source.strip() in text
    assert "budget 2/3 left" in text
    with pytest.raises(ValueError, match="render_mode"):
        make(render_mode="human")


@pytest.mark.parametrize(
    "action, error, match",
    [
        (2.7, TypeError, "integer"),
        (True, TypeError, "integer"),
        ("3", TypeError, "integer"),
        (np.array([1, 2]), TypeError, "integer"),
    ],
)
def test_malformed_discrete_actions_raise(make, action, error, match):
    env = make(mode="discrete")
    env.reset(seed=0)
    with pytest.raises(error, match=match):
        env.step(action)
    assert env.unwrapped.spent == 0 and env.unwrapped.log == []  # nothing was taken


def test_discrete_accepts_numpy_integers(make):
    env = make(mode="discrete")
    env.reset(seed=0)
    env.step(np.int64(rewrites.DONE))
    assert env.unwrapped.terminated


@pytest.mark.parametrize(
    "action, error, match",
    [
        ({"kernal": "x"}, ValueError, "unknown code action key.*'kernal'"),
        ({"tiling": 3}, TypeError, "'tiling' must be a str"),
        ({"done": 2}, ValueError, "'done' must be 0 or 1"),
        ({"done": 0.5}, ValueError, "'done' must be 0 or 1"),
        ("void kernel() {}", TypeError, "dict"),
    ],
)
def test_malformed_code_actions_raise(make, action, error, match):
    env = make()
    env.reset(seed=0)
    with pytest.raises(error, match=match):
        env.step(action)
    assert env.unwrapped.spent == 0


def test_make_and_validate(daemon):
    env = ascend_gym.make("level1/add", mode="discrete", budget=2, daemon=daemon)
    try:
        assert env.spec.id == "AscendOp-v0" and env.unwrapped.operator == "level1/add"
        env.reset(seed=0)
        env.step(rewrites.index("tile:larger"))
        verdict = env.unwrapped.validate(seeds=1)
        assert verdict.outcome == "OK", verdict.reasons
        assert verdict.retimed_best_us == env.unwrapped.best_us  # the simulator is deterministic
        env.unwrapped.best_us *= 0.5  # a record that claims more than the candidate does
        assert env.unwrapped.validate(seeds=1).outcome == "FAIL"
    finally:
        env.close()
