"""Best-of-N on one op with a tiny budget, offline and through a mocked OpenAI-compatible endpoint."""

from __future__ import annotations

import json

import gymnasium as gym
import httpx2

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from ascend_gym import suite
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


def test_best_of_n_samples_a_model_at_the_set_temperature(daemon):
    base = suite.resolve("level1/add")
    faster = base.tiling_source.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 8192;")
    seen = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        seen.append(body)
        content = (
            "Larger tiles.\n```cpp tiling\n" + faster + "```\n"
            if len(seen) % 2
            else "I have no idea."
        )
        return httpx2.Response(
            200,
            json={
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": content},
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            },
        )

    http = httpx2.Client(transport=httpx2.MockTransport(answer))
    env = gym.make(
        "ascend_gym:AscendOp-v0", operator="level1/add", budget=2, daemon=daemon, run_id="t-bon-llm"
    )
    try:
        result = BestOfN(
            http_client=http, proposer="llm", llm={"temperature": 0.6, "model": "m"}
        ).run(env, seed=0)
    finally:
        env.close()
    assert all(b["temperature"] == 0.6 and b["model"] == "m" for b in seen)
    assert (
        "TILE_LENGTH = 4096" in seen[0]["messages"][1]["content"]
    )  # every sample is prompted with the baseline
    # One distinct candidate: the repeat is a free cache hit and unparseable replies cost nothing.
    assert result.evaluations == 1 and result.proposer == "llm"
    assert result.llm_calls == len(seen) and result.prompt_tokens == 100 * len(seen)
