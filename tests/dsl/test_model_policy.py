"""The model path against a deterministic OpenAI-compatible server on 127.0.0.1 (started here),
with DSL and simulator errors sent back for repair; and the generate policy in the env under
the budget, offline and with the model."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import gymnasium as gym
import pytest

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from agents.llm import ChatClient, LLMConfig
from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym.dsl.model import ModelGenerator
from ascend_gym.policies import make_policy
from ascend_gym.suite_validate import evaluate

# pass 1: fp16 tile + fp32 tile (a DSL error); pass 2: builds but computes x * 0.5 (wrong);
# pass 3: the right program
WRONG_DTYPE = """```python
from ascend_gym.dsl import Kernel, exp
k = Kernel("sigmoid")
x = k.input("x")
y = k.output("y")
with k.tiles() as t:
    t.store(y, 1 / (1 + exp(-t.load(x))) + t.load(x).float())
```"""
WRONG_VALUE = WRONG_DTYPE.replace(
    "1 / (1 + exp(-t.load(x))) + t.load(x).float()", "t.load(x).float() * 0.5"
)
RIGHT = WRONG_DTYPE.replace(
    "1 / (1 + exp(-t.load(x))) + t.load(x).float()", "1 / (1 + exp(-t.load(x).float()))"
)


class Scripted(BaseHTTPRequestHandler):
    """Answers by how many repair requests the conversation holds: deterministic."""

    seen: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Scripted.seen.append(body)
        repairs = sum("failed" in m["content"] for m in body["messages"] if m["role"] == "user")
        content = [WRONG_DTYPE, WRONG_VALUE, RIGHT][min(repairs, 2)]
        reply = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server():
    Scripted.seen = []
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


def _sim_check(pkg) -> str:
    out = evaluate(pkg, DEFAULT_SOC)
    return "" if out.ok else f"{out.status}: {out.message} {out.failed_cases}"


def test_model_repairs_dsl_and_simulator_errors(server):
    gen = ModelGenerator(ChatClient(LLMConfig(base_url=server, model="scripted")), repairs=3)
    pkg, log = gen.generate(suite.resolve("level1/sigmoid"), _sim_check)
    assert pkg is not None and log.ok and log.calls == 3
    first, second, third = log.attempts
    assert first.error.startswith("DSL error at <dsl:sigmoid>:6") and "dtypes" in first.error
    assert second.error.startswith("WRONG_ANSWER")
    assert third.error == ""
    prompt = Scripted.seen[0]["messages"][1]["content"]
    assert "def sigmoid" in prompt and 'Kernel("elu")' in prompt  # reference + activation example
    assert "<dsl:sigmoid>:6" in Scripted.seen[1]["messages"][-1]["content"]
    assert log.prompt_tokens == 300 and log.completion_tokens == 150


def test_model_gives_up_after_its_repairs(server):
    gen = ModelGenerator(ChatClient(LLMConfig(base_url=server, model="scripted")), repairs=0)
    pkg, log = gen.generate(suite.resolve("level1/sigmoid"), _sim_check)
    assert pkg is None and log.calls == 1 and not log.ok


def _env(daemon, op, run_id, budget):
    return gym.make(
        "ascend_gym:AscendOp-v0", operator=op, budget=budget, daemon=daemon, run_id=run_id
    )


def test_generate_policy_offline_spends_the_budget_on_schedules(daemon):
    env = _env(daemon, "level2/softmax", "t-gen-offline", 3)
    try:
        result = make_policy("generate").run(env, seed=0)
    finally:
        env.close()
    assert result.policy == "generate" and result.generated and result.category == "normalization"
    assert result.evaluations == 3
    assert result.trajectory[0].phase == "generate" and result.trajectory[0].status.value == "OK"
    assert all(s.phase == "schedule" for s in result.trajectory[1:])
    assert result.best_us < result.baseline_us  # many rows per DMA beat the row-at-a-time baseline
    assert 'Kernel("softmax")' in result.program and result.schedule


def test_an_episode_with_generated_packages_replays_from_its_state(daemon):
    """Generated candidates bring their own tiling header; the state log keeps it, so the
    recorded episode rebuilds to the same packages without evaluating anything."""
    env = _env(daemon, "level2/softmax", "t-gen-state", 2)
    try:
        make_policy("generate").run(env, seed=0)
        core = env.unwrapped
        state = core.state
        assert state.steps[0].tiling_header.startswith("#ifndef SOFTMAX_TILING_H")
        _, current, best = state.rebuild()
        assert current.content_hash() == core.package.content_hash()
        assert best.content_hash() == core.best_package.content_hash()
        assert "SoftmaxTilingData" in best.files[best.tiling_header_path]
    finally:
        env.close()


def test_generate_policy_with_a_model_charges_only_built_programs(daemon, server):
    env = _env(daemon, "level1/sigmoid", "t-gen-llm", 4)
    try:
        policy = make_policy(
            "generate", proposer="llm", llm={"base_url": server, "model": "scripted"}
        )
        result = policy.run(env, seed=0)
    finally:
        env.close()
    # the DSL error cost nothing; the wrong answer and the right program cost one each
    assert result.llm_calls == 3 and result.generated
    assert [s.phase for s in result.trajectory][:2] == ["generate", "generate"]
    assert result.evaluations == 4 and len(result.repairs) == 2


def test_generate_policy_records_its_model_calls_and_replays_them_with_the_model_gone(
    daemon, server, tmp_path
):
    """The generate policy reaches the model through the gateway every policy uses: the shared
    temperature, calls counted, and a rerun with the endpoint gone answered from the record."""
    llm = {"model": "scripted", "cache_dir": str(tmp_path / "rec")}

    def run(run_id: str, **extra: str):
        env = _env(daemon, "level1/sigmoid", run_id, 3)
        try:
            policy = make_policy("generate", proposer="llm", llm={**llm, **extra})
            return policy.run(env, seed=0)
        finally:
            env.close()

    first = run("t-gen-rec", base_url=server, cache_mode="record")
    # nothing listens on the discard port: every call must come from the record
    again = run("t-gen-replay", base_url="http://127.0.0.1:9/v1", cache_mode="replay")
    assert Scripted.seen and all(b["temperature"] == 0.7 for b in Scripted.seen)
    assert first.llm_calls == len(Scripted.seen) == 3 and first.prompt_tokens == 300
    assert again.llm_calls == first.llm_calls and again.generated
    steps = [s.model_dump(exclude={"cache_hit"}) for s in first.trajectory]
    assert [s.model_dump(exclude={"cache_hit"}) for s in again.trajectory] == steps
    assert (again.best_us, again.best_hash) == (first.best_us, first.best_hash)


def test_generate_policy_tries_the_program_in_the_tensor_dtype(daemon):
    env = _env(daemon, "level1/sigmoid", "t-gen-native", 2)
    try:
        result = make_policy("generate").run(env, seed=0)
    finally:
        env.close()
    notes = [s.note for s in result.trajectory]
    assert notes == ["program (elementwise template)", "program (in the tensors' dtype)"]
    assert all(s.status.value == "OK" for s in result.trajectory)
    # the fp16 bench case without the two casts per tile is the faster program
    assert ".float()" not in result.program and result.best_us < result.baseline_us
