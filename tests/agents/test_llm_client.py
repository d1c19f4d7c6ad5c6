"""The chat client against a mocked OpenAI-compatible endpoint: accounting and record/replay."""

from __future__ import annotations

import json

import httpx2
import pytest

from agents.llm import ChatClient, LLMConfig, LLMError, cache_key


def completion(body: dict, content: str) -> httpx2.Response:
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
            "usage": {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500},
        },
    )


def test_tokens_and_cost_are_counted_and_the_key_is_sent():
    seen = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        seen.append((request.headers["authorization"], json.loads(request.content)))
        return completion(seen[-1][1], "hello")

    config = LLMConfig(
        model="m",
        api_key="sk-test",
        temperature=0.3,
        prompt_usd_per_mtok=2.0,
        completion_usd_per_mtok=8.0,
    )
    client = ChatClient(config, http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))
    reply = client.chat([{"role": "user", "content": "hi"}], seed=7)
    assert reply.content == "hello" and not reply.cached
    auth, body = seen[0]
    assert (
        auth == "Bearer sk-test"
        and body["temperature"] == 0.3
        and body["seed"] == 7
        and body["model"] == "m"
    )
    assert (
        client.usage.calls == 1
        and client.usage.prompt_tokens == 1000
        and client.usage.completion_tokens == 500
    )
    assert client.usage.cost_usd == pytest.approx((1000 * 2.0 + 500 * 8.0) / 1e6)


def test_record_then_replay_offline_returns_the_same_reply(tmp_path):
    calls = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        calls.append(1)
        return completion(json.loads(request.content), f"reply {len(calls)}")

    messages = [{"role": "user", "content": "optimise"}]
    recorder = ChatClient(
        LLMConfig(model="m", cache_dir=str(tmp_path), cache_mode="record"),
        http_client=httpx2.Client(transport=httpx2.MockTransport(answer)),
    )
    first = recorder.chat(messages, seed=1)

    def offline(request: httpx2.Request) -> httpx2.Response:
        raise AssertionError("replay must not touch the network")

    replayer = ChatClient(
        LLMConfig(model="m", cache_dir=str(tmp_path), cache_mode="replay"),
        http_client=httpx2.Client(transport=httpx2.MockTransport(offline)),
    )
    again = replayer.chat(messages, seed=1)
    assert again.content == first.content == "reply 1" and again.cached and again.key == first.key
    assert first.key == cache_key(
        "m", messages, {"temperature": 0.8, "max_tokens": 8192, "seed": 1}
    )
    with pytest.raises(LLMError):
        replayer.chat(messages, seed=2)  # another seed is another call: never recorded


def test_endpoint_failure_after_retries_is_an_llm_error():
    client = ChatClient(
        LLMConfig(model="m", max_retries=1),
        http_client=httpx2.Client(
            transport=httpx2.MockTransport(lambda r: httpx2.Response(500, json={}))
        ),
    )
    with pytest.raises(LLMError):
        client.chat([{"role": "user", "content": "x"}])
    assert client.usage.errors == 1 and client.usage.calls == 0
