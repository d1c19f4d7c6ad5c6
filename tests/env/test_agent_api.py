"""What agent authors touch first: ansi rendering, refused malformed actions, make and validate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ascend_gym
from ascend_gym import rewrites
from ascend_gym.corpus import build_package, find_ops, spec_for
from ascend_gym.corpus.importer import write_operator
from ascend_gym.env import code_action_of


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
        ({"sources": "x"}, TypeError, "'sources' must map source paths"),
        ({"sources": {"reference.py": "x"}}, ValueError, "not reference.py"),
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


def test_a_code_action_submits_the_kernel_s_headers_too(make, tmp_path):
    """A real operator keeps its kernel's class in an op_kernel header: a candidate that edits it
    (pipe_all_to_precise on a relu of ours in cann-ops' layout) reaches the daemon whole."""
    layouts = Path(__file__).parents[1] / "agents" / "real_layouts"
    relu = next(build_package(s, spec_for(s)) for s in find_ops(layouts) if s.op == "relu")
    write_operator(relu, tmp_path / "relu", "test")
    env = make(operator=str(tmp_path / "relu"))
    env.reset(seed=0)
    candidate = rewrites.by_name("pipe_all_to_precise").apply(env.unwrapped.package)
    assert candidate.kernel_source == env.unwrapped.package.kernel_source  # the edit is in a header
    _, _, _, _, info = env.step(code_action_of(candidate))
    assert (
        info["result"].status.value == "OK" and info["candidate_hash"] == candidate.content_hash()
    )
    assert env.unwrapped.spent == 1
    header = "op_kernel/relu_impl.h"
    assert env.unwrapped.package.files[header] == candidate.files[header]
    step = env.unwrapped.state.steps[-1]
    assert step.sources[header] == candidate.files[header]  # the state rebuilds it
