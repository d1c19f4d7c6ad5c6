"""The model gateway every policy talks through, in front of a scripted loopback endpoint:
accounting, record/replay with the endpoint gone, the call cap, failures."""

from __future__ import annotations

import pytest

from agents.llm import ChatClient, ChatServer, LLMConfig, LLMError, ModelGateway, cache_key
from agents.llm.gateway import ModelUnavailable
from agents.llm.server import chat_reply, error


def tokens_upstream(seen: list[dict]) -> ChatServer:
    def complete(body: dict) -> tuple[int, dict]:
        seen.append(body)
        reply = chat_reply(f"reply {len(seen)}", body["model"], body["messages"])
        reply["usage"] = {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
        return 200, reply

    return ChatServer(complete)


def client_of(gateway: ModelGateway) -> ChatClient:
    return ChatClient(gateway.config.model_copy(update={"base_url": gateway.base_url}))


def test_tokens_and_cost_are_counted_and_the_parameters_are_sent():
    seen: list[dict] = []
    config = LLMConfig(
        model="m", temperature=0.3, prompt_usd_per_mtok=2.0, completion_usd_per_mtok=8.0
    )
    with tokens_upstream(seen) as upstream, ModelGateway(config, upstream.base_url) as gateway:
        client = client_of(gateway)
        reply = client.chat([{"role": "user", "content": "hi"}], seed=7)
    assert reply.content == "reply 1" and not reply.cached
    assert seen[0]["temperature"] == 0.3 and seen[0]["seed"] == 7 and seen[0]["model"] == "m"
    for usage in (client.usage, gateway.usage):
        assert usage.calls == 1 and usage.prompt_tokens == 1000 and usage.completion_tokens == 500
        assert usage.cost_usd == pytest.approx((1000 * 2.0 + 500 * 8.0) / 1e6)


def test_record_then_replay_with_the_endpoint_gone(tmp_path):
    seen: list[dict] = []
    messages = [{"role": "user", "content": "optimise"}]
    record = LLMConfig(model="m", cache_dir=str(tmp_path), cache_mode="record")
    with tokens_upstream(seen) as upstream, ModelGateway(record, upstream.base_url) as gateway:
        first = client_of(gateway).chat(messages, seed=1)
        url = upstream.base_url
    replay = record.model_copy(update={"cache_mode": "replay"})
    with ModelGateway(replay, url) as gateway:  # `url` answers nothing any more
        client = client_of(gateway)
        again = client.chat(messages, seed=1)
        assert again.content == first.content == "reply 1" and again.cached
        assert again.key == first.key == gateway.keys[0]
        with pytest.raises(LLMError):
            client.chat(messages, seed=2)  # another seed is another call: never recorded
    assert len(seen) == 1 and gateway.usage.cache_hits == 1 and gateway.usage.errors == 1
    assert first.key == cache_key(
        "m", messages, {"temperature": 0.7, "max_tokens": 8192, "seed": 1}
    )


def test_a_repeated_call_replays_the_answer_it_had_each_time(tmp_path):
    """A sampling model answers the same prompt anew each time: the n-th asking of a call is
    recorded and replayed as its n-th answer, not the last answer for every asking."""
    seen: list[dict] = []
    messages = [{"role": "user", "content": "optimise"}]
    record = LLMConfig(model="m", cache_dir=str(tmp_path), cache_mode="record")
    with tokens_upstream(seen) as upstream, ModelGateway(record, upstream.base_url) as gateway:
        client = client_of(gateway)
        first = [client.chat(messages, seed=1).content for _ in range(3)]
        url = upstream.base_url
    assert first == ["reply 1", "reply 2", "reply 3"]
    replay = record.model_copy(update={"cache_mode": "replay"})
    with ModelGateway(replay, url) as gateway:
        client = client_of(gateway)
        assert [client.chat(messages, seed=1).content for _ in range(3)] == first
        with pytest.raises(LLMError, match="repeat 3"):
            client.chat(messages, seed=1)  # asked once more than in the record
    assert len(seen) == 3


def test_calls_beyond_the_cap_between_charged_evaluations_are_refused():
    seen: list[dict] = []
    spent = [0]
    config = LLMConfig(model="m", max_calls_per_evaluation=2)
    with (
        tokens_upstream(seen) as upstream,
        ModelGateway(config, upstream.base_url, charged=lambda: spent[0]) as gateway,
    ):
        client = client_of(gateway)
        for i in range(2):
            client.chat([{"role": "user", "content": f"try {i}"}])
        with pytest.raises(LLMError, match="max_calls_per_evaluation"):
            client.chat([{"role": "user", "content": "one too many"}])
        assert gateway.exhausted and gateway.refused == 1
        spent[0] = 1  # the cap is terminal: the model repeated itself, the run ends
        with pytest.raises(LLMError, match="nothing new"):
            client.chat([{"role": "user", "content": "after an evaluation"}])
    assert len(seen) == 2 and gateway.usage.calls == 2
    # A model with nothing new ends the run with its result, as a search that ran dry: no fault,
    # and the account says why it stopped and which setting bounds it.
    gateway.check(spent=1, budget=4)
    assert not gateway.failure
    assert "max_calls_per_evaluation = 2" in gateway.account()["stopped"]


def test_an_allowance_is_per_charged_evaluation():
    spent = [0]
    config = LLMConfig(model="m", max_calls_per_evaluation=2)
    with (
        tokens_upstream([]) as upstream,
        ModelGateway(config, upstream.base_url, charged=lambda: spent[0]) as gateway,
    ):
        client = client_of(gateway)
        for i in range(6):
            spent[0] = i // 2  # two calls, then a charged evaluation
            client.chat([{"role": "user", "content": f"try {i}"}])
    assert gateway.usage.calls == 6 and not gateway.failure


def test_an_endpoint_failure_is_an_llm_error_after_retries_and_ends_the_run():
    config = LLMConfig(model="m")
    seen: list[dict] = []

    def down(body: dict) -> tuple[int, dict]:
        seen.append(body)
        return 500, error("down")

    config = config.model_copy(update={"retry_s": 0.5})
    with ChatServer(down) as upstream, ModelGateway(config, upstream.base_url) as gateway:
        gateway.backoff_s = 0.1  # tries at 0, 0.1 and 0.3 s; the next would start past 0.5 s
        client = client_of(gateway)
        with pytest.raises(LLMError):
            client.chat([{"role": "user", "content": "x"}])
        with pytest.raises(LLMError):  # terminal: the upstream is not asked again
            client.chat([{"role": "user", "content": "y"}])
    assert len(seen) == 3
    assert client.usage.errors == 2 and client.usage.calls == 0 and gateway.usage.errors == 1
    with pytest.raises(ModelUnavailable, match="HTTP 500.*0 of 1 evaluations"):
        gateway.check(spent=0, budget=1)


def test_a_transient_failure_is_retried():
    answers = iter([(503, error("busy")), (200, None)])

    def flaky(body: dict) -> tuple[int, dict]:
        status, reply = next(answers)
        return status, reply or chat_reply("ok", body["model"], body["messages"])

    with ChatServer(flaky) as upstream, ModelGateway(LLMConfig(model="m"), upstream.base_url) as g:
        g.backoff_s = 0.01
        assert client_of(g).chat([{"role": "user", "content": "x"}]).content == "ok"
    assert not g.failure


def test_a_replay_miss_ends_the_run(tmp_path):
    config = LLMConfig(model="m", cache_dir=str(tmp_path), cache_mode="replay")
    with ModelGateway(config, "http://127.0.0.1:9/v1") as gateway:
        with pytest.raises(LLMError):
            client_of(gateway).chat([{"role": "user", "content": "never recorded"}])
    with pytest.raises(ModelUnavailable, match="replay miss"):
        gateway.check(spent=0, budget=2)
