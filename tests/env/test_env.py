"""AscendOp-v0 behaviour: rewards, episode ends, operator switching, observations of real
sources, state / fork / replay."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from ascend_core import suite
from ascend_core.protocol import Status
from ascend_gym import rewrites
from ascend_gym.env import (
    MAX_SOURCE_CHARS,
    N_FEATURES,
    SOURCE_CHARSET,
    AscendOpEnv,
    ascii_view,
)
from ascend_gym.state import replay

TILE = rewrites.index("tile:larger")
FEWER_CORES = rewrites.index("tune[0]:/2")  # block_dim 40 -> 20
LONGER_COPIES = rewrites.index(
    "tune[1]:x2"
)  # tile_length 4096 -> 8192: fewer DMA starts, faster on the simulator
NOOP = rewrites.index("tune[3]:x2")  # add has two @tune markers


def test_discrete_rewards_add_up_to_log_speedup(make):
    env = make(mode="discrete", budget=3)
    obs, info = env.reset(seed=0)
    assert (
        info["action_mask"][TILE]
        and not info["action_mask"][NOOP]
        and info["action_mask"][rewrites.DONE]
    )
    total = 0.0
    for action in (FEWER_CORES, NOOP, TILE):
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
    assert (
        info["noop"] is False and env.unwrapped.log[1].noop and env.unwrapped.log[1].reward == -0.05
    )
    # Above the noise floor of a device measurement (metrics.NOISE_FLOOR_REL, 2 %); under the
    # default protocol (launch repeated) fewer cores save little head, so the gain is the body's.
    assert info["speedup"] > 1.02 and info["result"].simulated
    assert math.isclose(total + 0.05, math.log(info["speedup"]), rel_tol=1e-9)
    assert obs[1] == pytest.approx(1 / info["speedup"])  # best / baseline column
    assert not truncated and info["budget_left"] == 1  # the noop cost nothing


def test_final_and_prev_delta_rewards(make):
    final = make(mode="discrete", budget=2, reward="final")
    final.reset(seed=0)
    _, r1, *_ = final.step(LONGER_COPIES)
    _, r2, terminated, truncated, info = final.step(rewrites.DONE)
    assert (
        r1 == 0 and terminated and not truncated and r2 == pytest.approx(math.log(info["speedup"]))
    )

    prev = make(mode="discrete", budget=4, reward="prev_delta")
    prev.reset(seed=0)
    _, a, *_ = prev.step(LONGER_COPIES)
    _, b, *_ = prev.step(rewrites.index("tune[1]:/2"))  # back to 4096: a cached revisit
    assert a > 0 and b == pytest.approx(-a) and prev.unwrapped.spent == 1


def test_failure_penalty_and_truncation_in_code_mode(make):
    env = make(mode="code", budget=2, failure_penalty=-2.0)
    obs, _ = env.reset(seed=0)
    broken = obs["kernel"].replace("op.Process();", "op.Process()")
    obs, reward, terminated, truncated, info = env.step({"tiling": "", "kernel": broken})
    assert info["result"].status is Status.COMPILE_ERROR and reward == -2.0 and not truncated
    assert obs["features"][9 + list(Status).index(Status.COMPILE_ERROR)] == 1.0
    obs, reward, terminated, truncated, info = env.step({"tiling": "", "kernel": broken})
    assert not truncated and info["budget_left"] == 1  # the same candidate again is free
    *_, truncated, info = env.step(
        {
            "tiling": obs["tiling"].replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 2048;"),
            "kernel": "",
        }
    )
    assert truncated and info["budget_left"] == 0


def test_code_mode_done_ends_without_evaluating(make):
    env = make(mode="code")
    env.reset(seed=0)
    *_, terminated, truncated, info = env.step({"tiling": "", "kernel": "", "done": 1})
    assert (
        terminated and not truncated and info["budget_left"] == 3 and info["candidate_hash"] is None
    )


def test_reset_switches_operator(make, tmp_path):
    other = tmp_path / "add_20_cores"
    shutil.copytree(suite.SUITE_ROOT / "level1" / "add", other)
    host = other / "op_host" / "add.cpp"
    host.write_text(host.read_text().replace("BLOCK_DIM = 40;", "BLOCK_DIM = 20;"))
    env = make(mode="discrete")
    _, info = env.reset(seed=0)
    base = info["baseline_us"]
    _, info = env.reset(options={"operator": str(other)})
    assert env.unwrapped.state.operator == str(other.resolve()) and info["baseline_us"] != base
    _, info = env.reset()  # the switch sticks
    assert env.unwrapped.state.operator == str(other.resolve())


def test_observation_handles_non_ascii_and_crlf(make, tmp_path):
    pkg = tmp_path / "add"
    shutil.copytree(suite.SUITE_ROOT / "level1" / "add", pkg)
    kernel = pkg / "op_kernel" / "add.cpp"
    kernel.write_bytes(
        kernel.read_text()
        .replace(
            "using namespace AscendC;", "// café: 8× faster — 加速\r\nusing namespace AscendC;"
        )
        .encode()
    )
    env = make(mode="code")
    obs, info = env.reset(options={"operator": str(pkg)})
    assert info["result"].status is Status.OK  # the original (UTF-8) source is what was built
    assert "// cafe: 8x faster - ??\nusing namespace AscendC;" in obs["kernel"]
    assert set(obs["kernel"]) <= set(SOURCE_CHARSET) and obs in env.observation_space
    assert "加速" in env.unwrapped.package.kernel_source
    assert len(ascii_view("x" * (MAX_SOURCE_CHARS + 5))) == MAX_SOURCE_CHARS


def test_state_json_fork_and_replay(make, daemon):
    env = make(mode="discrete", budget=4)
    env.reset(seed=0)
    for action in (FEWER_CORES, NOOP, TILE):
        env.step(action)
    state = env.unwrapped.state
    data = state.model_dump(mode="json")
    assert data["operator"] == "op://ascend-ops-v1/level1/add" and len(data["rewards"]) == 3
    assert {"ascend_gym", "gymnasium", "catalogue"} <= set(data["versions"]) and data[
        "simulated"
    ] is True
    assert [s["rewrite"] for s in data["steps"]] == ["tune[0]:/2", "tune[3]:x2", "tile:larger"]

    fork = env.unwrapped.fork()
    try:
        assert fork.state == state
        fork.step(rewrites.DONE)
        assert len(fork.state.steps) == 4 and len(env.unwrapped.state.steps) == 3  # independent
    finally:
        fork.close()

    fresh = AscendOpEnv.from_state(state.model_dump_json(), daemon=daemon, fresh_run=True)
    try:
        assert fresh.best_us == state.best_us and fresh.run_id != state.run_id
        report = replay(fresh, state)
        assert report.ok, report.mismatches
        assert report.replayed_best_us == pytest.approx(state.best_us)
    finally:
        fresh.close()


def test_state_rebuild_rejects_a_changed_log(make):
    env = make(mode="discrete")
    env.reset(seed=0)
    env.step(TILE)
    state = env.unwrapped.state
    state.steps[0].rewrite = "tile:smaller"
    with pytest.raises(ValueError, match="does not rebuild"):
        state.rebuild()


def test_step_before_reset_and_after_end(make):
    import gymnasium as gym

    env = make(mode="discrete", budget=1)
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.step(TILE)
    env.reset(seed=0)
    *_, truncated, _ = env.step(TILE)
    assert truncated
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.step(TILE)
    assert np.array_equal(
        env.unwrapped.action_mask[:-1], rewrites.applicable_mask(env.unwrapped.package)
    )


def test_docs_env_md_gives_the_spaces_their_sizes():
    text = (Path(__file__).parents[2] / "docs" / "env.md").read_text()
    boxes = re.findall(r"\bBox\((\d+)\)", text)
    assert boxes and {int(n) for n in boxes} == {N_FEATURES}
    assert {int(n) for n in re.findall(r"\bDiscrete\((\d+)\)", text)} - {2} == {
        len(rewrites.CATALOGUE) + 1
    }
