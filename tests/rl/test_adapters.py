"""Each adapter against the real trainer package where it installs here (TRL, OpenEnv), and the
HTTP and verl faces through their own wire shapes; all against a real daemon."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import urllib.error
import urllib.request

import pytest

from ascend_gym.rl import RewardService
from ascend_gym.rl.adapters import http as http_adapter
from ascend_gym.rl.adapters import verl
from ascend_gym.rl.adapters.trl import AscendToolEnv, TrlReward
from ascend_gym.rl.tasks import load_taskset

ADD = "op://ascend-ops-v1/level1/add"


@pytest.fixture(scope="module")
def service(daemon):
    with RewardService([daemon]) as s:
        yield s


def test_trl_reward_is_async_and_logs_components(service, add_expert_completion):
    from trl.trainer.utils import is_async_callable

    reward = TrlReward(service)
    assert is_async_callable(reward)
    logged: dict[str, float] = {}
    totals = asyncio.run(
        reward(
            prompts=["p"] * 3,
            completions=[add_expert_completion, "no code", add_expert_completion],
            operator=[ADD] * 3,
            log_metric=logged.__setitem__,
        )
    )
    assert totals[1] == 0.0 and totals[0] == totals[2] and totals[0] > 0.9
    assert logged["ascend/correct"] == pytest.approx(2 / 3) and logged["ascend/faults"] == 0
    assert all(s.reward.simulated and s.reward.model for s in reward.last if s.result)


def test_trl_environment_tool_schema_and_multi_turn(service, add_expert_completion):
    from transformers.utils import get_json_schema

    env = AscendToolEnv(service, max_turns=2)
    schema = get_json_schema(env.submit)  # what TRL renders into the prompt for the tool
    assert schema["function"]["name"] == "submit"
    assert set(schema["function"]["parameters"]["properties"]) == {"kernel", "tiling"}
    assert schema["function"]["parameters"]["required"] == ["kernel"]
    env.reset(operator=ADD, prompt="ignored")
    assert env.get_reward() == 0.0  # nothing submitted
    first = env.submit(kernel="int broken = ;")
    assert "COMPILE_ERROR" in first and "error" in first
    kernel = add_expert_completion.split("\n", 2)[2].rsplit("```", 1)[0]
    second = env.submit(kernel=kernel)
    assert "Status: OK" in second and "simulated" in second
    assert "No submissions left" in env.submit(kernel=kernel)
    assert env.get_reward() > 0.9


def post(url: str, body: object) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_openrlhf_remote_reward_endpoint(service, add_expert_completion):
    httpd = http_adapter.server(service)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_port}/get_reward"
    try:
        prompt = "Optimise add.\n"
        status, body = post(
            url,
            {
                "query": [prompt + add_expert_completion, prompt + "I give up"],
                "prompts": [prompt, prompt],
                "labels": [ADD, ADD],
            },
        )
        assert status == 200
        assert body["rewards"][0] > 0.9 and body["rewards"][1] == 0.0
        assert body["extra_logs"]["ascend/correct"] == [1.0, 0.0]
        assert post(url, {"query": ["x"], "labels": []})[0] == 400
        status, body = post(url, {"query": ["x"], "labels": ["level9/nothing"]})
        assert status == 400 and "not an operator" in body["error"]
        assert post(url.replace("get_reward", "other"), {})[0] == 404
    finally:
        httpd.shutdown()


def test_a_burst_of_as_many_connections_as_the_endpoint_holds_is_queued_not_dropped(service):
    # Before serve_forever nothing accepts: the kernel's listen queue alone holds the burst. Past
    # that queue a SYN is dropped and its client retries only after a second (the timeout here).
    httpd = http_adapter.server(service)
    burst: list[socket.socket] = []
    try:
        for _ in range(httpd.connections.limit):
            try:
                burst.append(socket.create_connection(("127.0.0.1", httpd.server_port), 0.5))
            except OSError:
                break  # dropped
        assert len(burst) == httpd.connections.limit, f"{len(burst)} queued"
    finally:
        for s in burst:
            s.close()
        httpd.server_close()


def test_verl_compute_score_and_interaction(daemon, add_expert_completion):
    scores = verl.compute_score_batch(
        ["ascend"] * 2, [add_expert_completion, "nothing"], [ADD] * 2, daemons=daemon
    )
    assert scores[0]["score"] > 0.9 and scores[0]["correct"] == 1.0 and scores[0]["simulated"]
    assert scores[1]["score"] == 0.0 and scores[1]["status"] == "FORMAT_ERROR"
    single = verl.compute_score("ascend", add_expert_completion, ADD, daemons=daemon)
    assert single["score"] == scores[0]["score"]

    async def dialogue():
        inter = verl.AscendInteraction({"daemons": daemon, "max_turns": 2, "stop_speedup": 9.0})
        iid = await inter.start_interaction(ground_truth=ADD)
        said = [{"role": "assistant", "content": "```cpp kernel\nint x = ;\n```"}]
        done, text, turn, _ = await inter.generate_response(iid, said)
        assert not done and "COMPILE_ERROR" in text and turn == pytest.approx(0.1)
        said = [{"role": "assistant", "content": add_expert_completion}]
        done, text, turn, meta = await inter.generate_response(iid, said)
        assert done and turn > 0.9 and meta["reward"]["status"] == "OK"
        best = await inter.calculate_score(iid)
        await inter.finalize_interaction(iid)
        return best

    assert asyncio.run(dialogue()) > 0.9


def test_openenv_server_with_openenv_s_own_client(service, add_expert_completion):
    import socket

    import uvicorn
    from openenv.core import GenericEnvClient

    from ascend_gym.rl.adapters.openenv import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tasks = [t for t in load_taskset("ascend-ops-v1") if t.operator == ADD]
    server = uvicorn.Server(
        uvicorn.Config(app(service, tasks, max_turns=2), port=port, log_level="error")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            thread.join(0.05)
        with GenericEnvClient(base_url=f"http://127.0.0.1:{port}").sync() as env:
            first = env.reset(operator=ADD)
            assert first.observation["operator"] == ADD
            assert "op_kernel/add.cpp" in first.observation["prompt"]
            step = env.step({"text": add_expert_completion})
            assert step.reward > 0.9 and not step.done
            assert step.observation["status"] == "OK" and step.observation["simulated"]
            assert "Bottleneck" in step.observation["feedback"]
            step = env.step({"files": {"op_kernel/add.cpp": "int x = ;"}})
            assert step.observation["status"] == "COMPILE_ERROR" and step.done
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_baseline_fault_withholds_the_reward_of_a_correct_candidate(service):
    from ascend_core.protocol import EvalResult, Status
    from ascend_gym.aclient import Fault, Outcome

    ok = Outcome(
        index=0, request_id="c", result=EvalResult(request_id="c", status=Status.OK, latency_us=5.0)
    )
    wrong = Outcome(
        index=1, request_id="w", result=EvalResult(request_id="w", status=Status.WRONG_ANSWER)
    )
    lost = Outcome(index=0, request_id="b", fault=Fault.LOST, message="gone")
    withheld = service._reward(ok, lost)
    assert withheld.total is None and withheld.retryable and "baseline" in withheld.message
    assert service._reward(wrong, lost).total == pytest.approx(0.3)  # needs no baseline
