"""Hosted models that misbehave (issue 54, points 3, 4 and 5): rate limits with Retry-After, slow
replies, clients that give up, replies without choices. Each upstream is a real HTTP server on
loopback, scripted per request."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from agents.llm import ChatClient, LLMConfig, LLMError, ModelGateway
from agents.llm.gateway import ModelUnavailable
from agents.llm.server import chat_reply
from agents.llm.sources import cases_text
from ascend_core import suite

MESSAGES = [{"role": "user", "content": "optimise"}]


@contextmanager
def scripted(answers: list[tuple[int, dict, dict[str, str]]], delay_s: float = 0.0) -> Iterator:
    """An endpoint answering its n-th request with answers[n] (status, JSON body, headers), the
    last one for every request after; `times` holds when each request came."""
    times: list[float] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            times.append(time.monotonic())
            status, body, headers = answers[min(len(times), len(answers)) - 1]
            time.sleep(delay_s)
            data = json.dumps(body).encode()
            try:
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", times
    finally:
        server.shutdown()
        server.server_close()


OK = (200, chat_reply("```cpp\n// better\n```", "m", MESSAGES), {})
LIMITED = (429, {"error": {"message": "rate limited"}}, {"Retry-After": "1"})


def client_of(gateway: ModelGateway) -> ChatClient:
    return ChatClient(gateway.config.model_copy(update={"base_url": gateway.base_url}))


def test_a_rate_limit_is_retried_after_the_wait_the_endpoint_asks_for():
    config = LLMConfig(model="m", retry_s=10)
    with scripted([LIMITED, OK]) as (url, times), ModelGateway(config, url) as gateway:
        gateway.backoff_s = 60  # without Retry-After the gateway would give up at once
        reply = client_of(gateway).chat(MESSAGES)
    assert "better" in reply.content and not gateway.failure
    assert len(times) == 2 and times[1] - times[0] >= 0.95


def test_a_wait_past_the_users_bound_gives_up_and_names_the_bound():
    config = LLMConfig(model="m", retry_s=0.5)
    with scripted([LIMITED]) as (url, times), ModelGateway(config, url) as gateway:
        with pytest.raises(LLMError):
            client_of(gateway).chat(MESSAGES)
    assert len(times) == 1
    assert (
        "Retry-After 1 s" in gateway.failure and "retry_s = 0.5 s, --llm-retry-s" in gateway.failure
    )
    with pytest.raises(ModelUnavailable, match="HTTP 429"):
        gateway.check(spent=0, budget=2)


def test_a_slow_model_is_asked_once_per_try_with_no_client_retries_stacked():
    config = LLMConfig(model="m", timeout_s=0.5, retry_s=0)
    with scripted([OK], delay_s=1.0) as (url, times), ModelGateway(config, url) as gateway:
        with pytest.raises(LLMError, match="no answer"):
            client_of(gateway).chat(MESSAGES)
        time.sleep(0.7)  # let a stacked client retry arrive, if there were one
    assert len(times) == 1, f"{len(times)} upstream requests for one call"
    assert client_of(gateway)._openai().max_retries == 0


def test_a_client_that_gives_up_leaves_no_traceback_in_the_gateway(capfd):
    config = LLMConfig(model="m", retry_s=0)
    with scripted([OK], delay_s=1.0) as (url, _), ModelGateway(config, url) as gateway:
        request = urllib.request.Request(
            gateway.base_url + "/chat/completions",
            data=json.dumps({"model": "m", "messages": MESSAGES}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with pytest.raises(OSError):
            urllib.request.urlopen(request, timeout=0.3)
        time.sleep(1.2)  # the gateway answers the closed connection
    assert "Traceback" not in capfd.readouterr().err


def test_replies_without_choices_are_a_named_retried_fault():
    empty = (200, {"id": "x", "object": "chat.completion", "choices": []}, {})
    config = LLMConfig(model="m", retry_s=5)
    with scripted([empty, OK]) as (url, times), ModelGateway(config, url) as gateway:
        gateway.backoff_s = 0.05
        assert "better" in client_of(gateway).chat(MESSAGES).content  # retried, then answered
    with scripted([empty]) as (url, times), ModelGateway(config, url) as gateway:
        gateway.backoff_s = 1.0
        with pytest.raises(LLMError):
            client_of(gateway).chat(MESSAGES)
    assert len(times) == 3 and "without choices" in gateway.failure  # at 0, 1, 3 s; 7 > 5
    with pytest.raises(ModelUnavailable, match="without choices"):
        gateway.check(spent=0, budget=1)


# The gateway ends a model with nothing new for every policy (tests/agents/test_llm_client.py);
# AscendOptimizer's prompts carrying every case are checked by the default tier's
# test_ascendoptimizer.py::test_a_scripted_model_drives_stage1_and_stage2, so its optimize run
# here (9 to 35 s in loaded runs) is slow.
@pytest.mark.parametrize("policy", ["bon", pytest.param("ascendoptimizer", marks=pytest.mark.slow)])
def test_a_model_with_nothing_new_ends_the_task_with_its_result(policy, tmp_path, daemon):
    from agents.llm.server import ChatServer, answering
    from tests.test_cli_errors import cli

    out, prompts = tmp_path / "out", []

    def answer(messages: list[dict]) -> str:
        prompts.append(messages[-1]["content"])
        return "I would not change anything."

    with ChatServer(answering(answer)) as model:
        done = cli(
            "optimize", "level1/add", "--policy", policy, "--budget", "4",
            "--base-url", model.base_url, "--out", str(out), "--daemon", daemon,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "max_calls_per_evaluation = 8" in done.stdout, done.stdout
    record = json.loads((out / "result.json").read_text())
    assert record["ok"] and record["failure"] == "" and record["llm_calls"] >= 8
    assert "nothing new" in record["stopped"] and record["best_us"] == record["baseline_us"]
    # Every prompt carries every correctness case and the tolerances, not only the bench case.
    for line in cases_text(suite.resolve("level1/add").spec).splitlines():
        assert all(line in prompt for prompt in prompts), line
    assert "tail_fp16: float16; x=[3, 1000]" in prompts[0] and "tolerance float32" in prompts[0]


def test_openevolve_programs_carry_every_case_and_tolerance():
    from baselines.openevolve.program import compose

    program = compose(suite.resolve("level1/add"))
    assert "// - uneven_fp32: float32; x=[77, 129], y=[77, 129]" in program
    assert "// - tolerance float16: |out - ref| <= 0.001 + 0.001 * |ref|" in program


@pytest.mark.parametrize("verb", [("optimize", "level1/add"), ("bench", "--ops", "level1/add")])
def test_an_unset_api_key_variable_is_one_line_not_bearer_none(verb, monkeypatch):
    from tests.test_cli_errors import assert_usage_error, cli

    monkeypatch.delenv("ASCEND_GYM_TEST_NO_KEY", raising=False)
    done = cli(
        *verb, "--policy" if verb[0] == "optimize" else "--policies", "bon",
        "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "ASCEND_GYM_TEST_NO_KEY",
    )  # fmt: skip
    assert_usage_error(done, "--api-key-env ASCEND_GYM_TEST_NO_KEY", "not set")
