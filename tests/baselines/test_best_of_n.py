"""Best-of-N on one op with a tiny budget, offline (model-driven runs: tests/agents/test_model_replay.py)."""

from __future__ import annotations

import gymnasium as gym

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from agents.llm import ChatServer
from agents.llm.server import answering
from baselines.best_of_n import BestOfN


def test_best_of_n_offline_spends_exactly_the_budget(daemon):
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator="level1/add",
        budget=3,
        daemon=daemon,
        run_id="t-bon-offline",
    )
    try:
        result = BestOfN().run(env, seed=1)
    finally:
        env.close()
    assert result.policy == "bon" and result.proposer == "offline"
    assert result.evaluations == 3 and result.best_us <= result.baseline_us
    assert len(result.expected_speedup) == 4 and result.expected_speedup[0] == 1.0
    assert result.expected_speedup == sorted(result.expected_speedup)
    assert result.expected_speedup[-1] == max(1.0, result.baseline_us / result.best_us)


def test_the_model_sees_every_source_and_the_simulators_profile(daemon):
    seen: list[list[dict]] = []

    def answer(messages: list[dict]) -> str:
        seen.append(messages)
        return "no change"

    env = gym.make("ascend_gym:AscendOp-v0", operator="level1/add", budget=1, daemon=daemon)
    try:
        with ChatServer(answering(answer)) as model:
            llm = {"base_url": model.base_url, "max_calls_per_evaluation": 1}
            # The model proposes nothing: the cap ends the run, a result with its reason.
            result = BestOfN(proposer="llm", llm=llm).run(env, seed=0)
            assert result.evaluations == 0 and "max_calls_per_evaluation = 1" in result.stopped
        package = env.unwrapped.package
    finally:
        env.close()
    prompt = seen[0][1]["content"]
    assert (
        package.tiling_header_path in prompt and package.files[package.tiling_header_path] in prompt
    )
    assert "profile: vector" in prompt and "block dim" in prompt and "bench_fp16" in prompt
