"""Every registered AscendOp id in every mode: Gymnasium's env_checker, a same-seed rollout, and a
pickling round trip (Ray pickles envs); plus the class docstring's doctest (the env's manual)."""

from __future__ import annotations

import doctest
import os
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

from ascend_gym import rewrites
from ascend_gym.env import AscendOpEnv

IDS = sorted(i for i in gym.registry if i.startswith("AscendOp"))
CANN_DAEMON = os.environ.get("ASCEND_GYM_CANN_DAEMON")  # tcp://host:port of an NPU daemon, if any


def _env_args(env_id: str, daemon: str) -> dict:
    if gym.spec(env_id).kwargs.get("backend") == "cann":
        if not CANN_DAEMON:
            pytest.skip("no cann daemon here (set ASCEND_GYM_CANN_DAEMON to an NPU host's daemon)")
        return {"daemon": CANN_DAEMON}
    return {"daemon": daemon}


def test_registration():
    assert {"AscendOp-v0", "AscendOpCann-v0"} <= set(IDS)
    assert gym.spec("AscendOp-v0").nondeterministic is False  # the simulator is deterministic
    assert gym.spec("AscendOpCann-v0").nondeterministic is True  # real NPU timings are not
    assert all(gym.spec(i).max_episode_steps for i in IDS)


class _SameSeedSameInfo(AscendOpEnv):
    """For Gymnasium's checker, which compares two same-seed episodes' infos: `info["run_id"]`
    names each episode's own daemon run (`run`, then `run/e2`), so it differs by design."""

    def _info(self, *args, **kwargs) -> dict:
        return {k: v for k, v in super()._info(*args, **kwargs).items() if k != "run_id"}


def _rollout(env: gym.Env, seed: int, steps: int) -> list:
    env.action_space.seed(seed)
    out = [_without_run_id(env.reset(seed=seed))]
    for _ in range(steps):
        out.append(_without_run_id(env.step(env.action_space.sample())))
        if out[-1][2] or out[-1][3]:
            break
    return out


def _without_run_id(returned: tuple) -> tuple:
    *rest, info = returned
    return (*rest, {k: v for k, v in info.items() if k != "run_id"})


@pytest.mark.parametrize("mode", ["discrete", "code"])
@pytest.mark.parametrize("env_id", IDS)
def test_checker_rollout_and_pickle(env_id, mode, daemon):
    env = gym.make(env_id, mode=mode, budget=3, **_env_args(env_id, daemon))
    checked = _SameSeedSameInfo(
        mode=mode, budget=3, **gym.spec(env_id).kwargs, **_env_args(env_id, daemon)
    )
    checked.spec = env.unwrapped.spec  # the checker makes the id again for its render check
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(checked)
        assert not [
            str(w.message) for w in caught if "gymnasium" in w.filename or "WARN" in str(w.message)
        ]

        if not gym.spec(env_id).nondeterministic:
            first, second = _rollout(env, 7, 4), _rollout(env, 7, 4)
            assert data_equivalence(first, second)

        obs, _ = env.reset(seed=3)
        if mode == "discrete":
            first, then = rewrites.index("tile:larger"), rewrites.index("tune[0]:/2")
        else:
            first = {
                "tiling": obs["tiling"].replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 8192;"),
                "kernel": "",
                "done": 0,
            }
            then = {
                "tiling": first["tiling"].replace("BLOCK_DIM = 40;", "BLOCK_DIM = 20;"),
                "kernel": "",
                "done": 0,
            }
        env.step(first)
        copy = pickle.loads(pickle.dumps(env))
        try:
            assert copy.unwrapped.state == env.unwrapped.state
            a, b = env.step(then), copy.step(then)
            # The copy steps in the same run: the candidate the original has just paid for is free
            # to it (the daemon's count), so only the budget's accounting differs.
            assert a[1:4] == b[1:4]  # reward, terminated, truncated
            assert (a[4]["candidate_hash"], a[4]["current_us"]) == (
                b[4]["candidate_hash"],
                b[4]["current_us"],
            )
            assert b[4]["evaluations"] == a[4]["evaluations"] - 1 and b[4]["result"].cache_hit
            fa, fb = (x if mode == "discrete" else x["features"] for x in (a[0], b[0]))
            differ = np.flatnonzero(fa != fb)  # the budget left, one evaluation more for the copy
            assert differ.size == 1 and fb[differ[0]] - fa[differ[0]] == pytest.approx(1 / 3)
        finally:
            copy.close()
    finally:
        checked.close()
        env.close()


def test_manual_doctest(daemon):
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(AscendOpEnv, "AscendOpEnv", globs={"DAEMON": daemon})
    assert tests and tests[0].examples
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_async_vector_env_shares_one_daemon(daemon):
    envs = gym.vector.AsyncVectorEnv(
        [lambda: gym.make("AscendOp-v0", mode="discrete", budget=2, daemon=daemon)] * 2
    )
    try:
        obs, info = envs.reset(seed=[0, 1])
        assert obs.shape == (2, envs.single_observation_space.shape[0])
        tile = np.array([17, 17])  # tile:larger
        obs, reward, terminated, truncated, info = envs.step(tile)
        assert np.allclose(reward, reward[0]) and not terminated.any()
        assert [r.status.value for r in info["result"]] == ["OK", "OK"]
    finally:
        envs.close()
