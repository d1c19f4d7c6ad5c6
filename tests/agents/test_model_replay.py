"""Model-driven runs of every policy through the one recording layer (the model gateway): a run
against a scripted loopback model records its calls, and a rerun with the model gone replays them
and reproduces the run. Every policy samples at the same temperature under the same call cap."""

from __future__ import annotations

import hashlib
import re

import gymnasium as gym
import pytest

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from agents.llm import ChatServer
from agents.llm.server import chat_reply, error
from ascend_gym.policies import make_policy

FACTORS = (2, 4, 0.5, 0.25)
POLICY_CONFIG = {
    "bon": {},
    "ascendoptimizer": {"rounds": 1, "stage1_steps": 2, "stage2_steps": 1},
    "openevolve": {},
}


def scripted(seen: list[dict]):
    """A deterministic model that samples as a model does: it changes the tile length of the
    program in the prompt by a factor chosen by the request's seed (or, without one, by the
    prompt) and by how often it was asked the same before, as a SEARCH/REPLACE edit."""
    asked: dict[str, int] = {}

    def complete(body: dict) -> tuple[int, dict]:
        seen.append(body)
        user = "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")
        m = re.search(r"^(.*constexpr uint32_t TILE_LENGTH = )(\d+)(;.*)$", user, re.MULTILINE)
        if m is None:
            return 400, error("no tiling program in the prompt")
        pick = body.get("seed")
        if pick is None:
            pick = int(hashlib.sha256(user.encode()).hexdigest(), 16)
        again = asked.get(f"{pick}:{user}", 0)
        asked[f"{pick}:{user}"] = again + 1
        pick += again
        new = max(256, min(16384, int(int(m[2]) * FACTORS[pick % len(FACTORS)])))
        content = (
            f"Tile length {new}.\n<<<<<<< SEARCH\n{m[0]}\n=======\n"
            f"{m[1]}{new}{m[3]}\n>>>>>>> REPLACE\n"
        )
        return 200, chat_reply(content, body["model"], body["messages"])

    return complete


def run(daemon: str, policy: str, run_id: str, llm: dict):
    env = gym.make(
        "ascend_gym:AscendOp-v0", operator="level1/add", budget=2, daemon=daemon, run_id=run_id
    )
    try:
        config = {**POLICY_CONFIG[policy], "proposer": "llm", "llm": llm}
        return make_policy(policy, **config).run(env, seed=0)
    finally:
        env.close()


# The default run replays AscendOptimizer and Best-of-N; OpenEvolve (its own process tree) is slow.
@pytest.mark.parametrize(
    "policy",
    [
        p if p != "openevolve" else pytest.param(p, marks=pytest.mark.slow)
        for p in sorted(POLICY_CONFIG)
    ],
)
def test_a_model_driven_run_replays_with_the_model_gone(daemon, tmp_path, policy):
    seen: list[dict] = []
    server = ChatServer(scripted(seen))
    llm = {"model": "scripted", "base_url": server.base_url, "cache_dir": str(tmp_path / "rec")}
    try:
        first = run(daemon, policy, f"t-replay-{policy}-1", {**llm, "cache_mode": "record"})
    finally:
        server.close()
    again = run(daemon, policy, f"t-replay-{policy}-2", {**llm, "cache_mode": "replay"})
    # Every call went through the gateway at the shared settings, and was counted.
    assert seen and all(b["temperature"] == 0.7 and b["model"] == "scripted" for b in seen)
    assert first.llm_calls == len(seen) and first.evaluations >= 1
    # The scripted endpoint reports no usage: no tokens are made up, characters are measured.
    assert first.prompt_tokens == 0 and first.prompt_chars > 0 and first.model == "scripted"
    # The replay: the same candidates in the same order with the same results, every call answered
    # from the record.
    steps = [s.model_dump(exclude={"cache_hit"}) for s in first.trajectory]
    assert [s.model_dump(exclude={"cache_hit"}) for s in again.trajectory] == steps
    assert (again.best_us, again.best_hash, again.evaluations) == (
        first.best_us,
        first.best_hash,
        first.evaluations,
    )
    if policy != "openevolve":  # OpenEvolve's workers may have a call in flight when it is stopped
        assert again.llm_calls == first.llm_calls
