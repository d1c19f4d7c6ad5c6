"""Wrappers: budget counter, trajectory recorder, fault tolerance, operator cycling, action mask."""

from __future__ import annotations

import json

import numpy as np

from ascend_core.protocol import Status
from ascend_gym import rewrites
from ascend_gym.client import DaemonError
from ascend_gym.state import EnvState
from ascend_gym.wrappers import (
    ActionMaskObservation,
    BudgetCounter,
    CycleOperators,
    FaultTolerant,
    RandomOperators,
    TrajectoryRecorder,
)

TILE = rewrites.index("tile:larger")
FEWER_CORES = rewrites.index("tune[0]:/2")


def test_budget_counter_spans_episodes(make):
    env = BudgetCounter(make(mode="discrete", budget=5), total_budget=2)
    env.reset(seed=0)
    *_, truncated, info = env.step(TILE)
    assert info["evaluations_total"] == 1 and info["total_budget_left"] == 1 and not truncated
    env.reset()
    *_, truncated, info = env.step(TILE)  # charged again: budgets are per episode
    assert (
        truncated and info["total_budget_left"] == 0 and env.evaluations == 2 and env.episodes == 2
    )


def test_trajectory_recorder_writes_a_line_per_step(make, tmp_path):
    path = tmp_path / "traj.jsonl"
    env = TrajectoryRecorder(make(mode="discrete", budget=2), path)
    env.reset(seed=0)
    env.step(rewrites.index("tune[3]:x2"))  # a no-op
    env.step(FEWER_CORES)
    env.step(TILE)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert (
        [r["step"] for r in records] == [0, 1, 2]
        and records[0]["noop"]
        and records[0]["result"] is None
    )
    assert (
        "-constexpr uint32_t BLOCK_DIM = 40;" in records[1]["diff"]
        and "+constexpr uint32_t BLOCK_DIM = 20;" in records[1]["diff"]
    )
    assert records[1]["result"]["status"] == "OK" and records[1]["simulated"] is True
    assert (
        records[1]["candidate_hash"] and records[1]["parent_hash"] != records[1]["candidate_hash"]
    )
    assert (
        records[2]["truncated"]
        and EnvState.model_validate(records[2]["state"]).best_us == records[2]["best_us"]
    )


def test_fault_tolerant_turns_daemon_faults_into_terminated_episodes(make):
    env = FaultTolerant(make(mode="discrete"))
    obs, _ = env.reset(seed=0)

    def dead(*args, **kwargs):
        raise DaemonError(
            "no answer from tcp://127.0.0.1:1 after 600 s (4 tries; the daemon stopped "
            "answering or is not there)"
        )

    core = env.unwrapped
    live = core.client.evaluate
    core.client.evaluate = dead
    fault_obs, reward, terminated, truncated, info = env.step(TILE)
    assert terminated and not truncated and reward == 0.0 and info["fault"]
    assert "DaemonError" in info["error"] and info["result"].status is Status.DAEMON_ERROR
    assert (
        np.array_equal(fault_obs, obs)
        and info["action_mask"][-1]
        and not info["action_mask"][:-1].any()
    )
    assert env.step(TILE)[2]  # stays terminated until reset

    fault_obs, info = env.reset(seed=0)  # the baseline evaluation fails too
    assert info["fault"] and fault_obs in env.observation_space and env.step(TILE)[2]
    core.client.evaluate = live
    _, info = env.reset(seed=0)
    assert "fault" not in info and env.faults == 2


def test_operator_cycle_and_random_order(make):
    ops = ["level1/add", "op://ascend-ops-v1/level1/add"]
    env = CycleOperators(make(mode="discrete"), ops)
    seen = []
    for _ in range(3):
        env.reset()
        seen.append(env.unwrapped.operator)
    assert seen == [ops[0], ops[1], ops[0]]

    rand = RandomOperators(make(mode="discrete"), ops)
    picks = []
    for seed in (5, 5):
        rand.reset(seed=seed)
        picks.append(
            [rand.unwrapped.operator] + [rand.reset() and rand.unwrapped.operator for _ in range(3)]
        )
    assert picks[0] == picks[1]


def test_action_mask_observation(make):
    env = ActionMaskObservation(make(mode="discrete"))
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    assert np.array_equal(obs["action_mask"].astype(bool), info["action_mask"])
