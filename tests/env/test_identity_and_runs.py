"""What an RL or agent researcher relies on beyond the Gymnasium API: the observation says which
operator it is and where its @tune knobs stand, a `soc` typo fails at construction, an env's own
daemon has one worker, each episode is a daemon run with the episode's budget, and every policy
records its steps from `info` the same way."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Status
from ascend_gym import rewrites
from ascend_gym.client import DaemonClient
from ascend_gym.env import FEATURE_NAMES, AscendOpEnv
from ascend_gym.policies import StepRecord

ID = FEATURE_NAMES.index("operator_id")
TUNE0 = FEATURE_NAMES.index("tune[0]=position")


def test_the_observation_carries_the_operator_and_its_tune_values(daemon):
    obs = {}
    for op in ("level1/add", "level1/relu"):
        env = AscendOpEnv(operator=op, mode="discrete", budget=2, daemon=daemon)
        try:
            obs[op], info = env.reset(seed=0)
            assert info["operator"] == suite.resolve(op).uri and info["tunables"]
            assert obs[op][FEATURE_NAMES.index("tune[0]=present")] == 1.0
            if op == "level1/add":
                before = obs[op][TUNE0]
                after, _, _, _, info = env.step(rewrites.index("tune[0]:/2"))
                assert info["result"].status == Status.OK
                assert after[TUNE0] < before  # the knob moved down its range, and it shows
        finally:
            env.close()
    assert obs["level1/add"][ID] != obs["level1/relu"][ID]
    # The identity columns close the Box, after the catalogue's applies= columns.
    assert FEATURE_NAMES[-10:-8] == ("level/3", "operator_id") and np.all(
        obs["level1/add"] <= 1000.0
    )


def test_a_soc_typo_fails_at_construction_with_the_presets():
    with pytest.raises(ValueError, match="unknown soc 'Ascend910Z'.*Ascend910B4"):
        AscendOpEnv(soc="Ascend910Z")  # no daemon started, no baseline blamed


def test_an_env_starts_its_own_daemon_with_one_worker():
    env = AscendOpEnv(budget=1)
    try:
        assert env.client.stats().workers == 1
    finally:
        env.close()


def test_an_env_s_own_daemon_requires_run_tokens():
    env = AscendOpEnv(budget=1)
    outsider = DaemonClient(env.address)
    try:
        env.reset(seed=0)
        assert env.validate(seeds=1).outcome == "OK"  # validation opens a run of its own
        request = EvalRequest(run_id="never-opened", package=env.package, soc=env.soc)
        refused = outsider.evaluate(request)
        assert refused.status == Status.REJECTED and "requires run tokens" in refused.message
    finally:
        outsider.close()
        env.close()


def test_each_episode_is_a_daemon_run_with_the_episode_budget(daemon):
    env = AscendOpEnv(mode="discrete", budget=1, daemon=daemon)
    outsider = DaemonClient(daemon)
    try:
        _, info = env.reset(seed=0)
        first = env.run_id
        assert info["run_id"] == first
        # The run is the env's: a submission without its token is refused by the daemon itself.
        request = EvalRequest(run_id=first, package=env.package, soc=env.soc)
        assert outsider.evaluate(request).status == Status.REJECTED
        env.step(rewrites.index("tile:larger"))
        assert outsider.ledger(first).evaluations == 1
        _, info = env.reset(seed=0)  # the next episode is a run of its own, with its own budget
        assert env.run_id == info["run_id"] == f"{first}/e2"
        _, _, _, truncated, info = env.step(rewrites.index("tile:larger"))
        assert info["result"].ok and truncated and info["run_id"] == f"{first}/e2"
        assert outsider.ledger(info["run_id"]).evaluations == 1  # the run info names is charged
    finally:
        outsider.close()
        env.close()


def test_the_env_counts_what_the_daemon_charges(daemon):
    env = AscendOpEnv(budget=3, daemon=daemon)
    outsider = DaemonClient(daemon)
    try:
        env.reset(seed=0)
        larger = rewrites.CATALOGUE[rewrites.index("tile:larger")].apply(env.package, env.soc)
        # The baseline is answered from its own run, paid at reset; a candidate is charged once.
        for tiling, spent in (("", 0), (larger.tiling_source, 1), (larger.tiling_source, 1)):
            _, _, _, _, info = env.step({"tiling": tiling, "kernel": ""})
            assert env.spent == spent == outsider.ledger(env.run_id).evaluations
        assert info["result"].cache_hit and not env.log[-1].charged and env.log[-2].charged
    finally:
        outsider.close()
        env.close()


def test_a_step_record_is_made_from_info_alone(daemon):
    env = AscendOpEnv(mode="discrete", budget=2, daemon=daemon)
    try:
        env.reset(seed=0)
        _, _, _, _, info = env.step(rewrites.index("tile:larger"))
        step = StepRecord.of(info, "tile:larger", "stage1")
        assert step.evaluation == 1 == env.spent and step.best_us == env.best_us
        assert step.latency_us == info["result"].latency_us and step.phase == "stage1"
    finally:
        env.close()


def test_an_env_runs_on_a_daemon_that_requires_run_tokens(token_daemon):
    # A daemon bound beyond loopback refuses every run that was not opened: the baseline's too.
    env = AscendOpEnv(mode="discrete", budget=1, daemon=token_daemon)
    try:
        env.reset(seed=0)
        _, _, _, _, info = env.step(rewrites.index("tile:larger"))
        assert info["result"].ok
        env.reset(seed=0)  # the second episode's baseline run is opened too
        assert env.client.ledger(f"{env.run_id}/baseline").evaluations == 1
    finally:
        env.close()
