"""OpenAI-compatible chat client (DeepSeek, OpenAI, vLLM, a local server: anything with
/v1/chat/completions) with timeouts, retries, token and cost accounting and the replay cache."""

from __future__ import annotations

import os
import time
from typing import Any

from pydantic import BaseModel, Field

from agents.llm.cache import CacheMode, ReplayCache, cache_key


class LLMConfig(BaseModel):
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "deepseek-chat"
    api_key: str = ""  # takes precedence over the environment variable
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(0.8, ge=0.0, le=2.0)
    max_tokens: int = Field(8192, gt=0)
    timeout_s: float = Field(300.0, gt=0)
    max_retries: int = Field(
        3, ge=0
    )  # the openai client's own retries (connection errors, 429, 5xx)
    # Prices for the cost account; 0 means "not priced" (a local server).
    prompt_usd_per_mtok: float = Field(0.0, ge=0)
    completion_usd_per_mtok: float = Field(0.0, ge=0)
    cache_dir: str = ""  # record/replay cache; empty = no cache
    cache_mode: CacheMode = "auto"

    def resolved_key(self) -> str:
        # Local servers accept any key; the openai client insists on a non-empty one.
        return self.api_key or os.environ.get(self.api_key_env, "") or "none"


class Usage(BaseModel):
    calls: int = 0  # calls answered (by the endpoint or the cache)
    cache_hits: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    wall_s: float = 0.0


class ChatReply(BaseModel):
    key: str  # cache key of the call
    content: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False


class LLMError(RuntimeError):
    """The endpoint failed after its retries, or replay mode had no recording."""


class ChatClient:
    """`chat(messages)` -> ChatReply. `http_client` lets tests put an httpx2.MockTransport in."""

    def __init__(self, config: LLMConfig, http_client: Any = None):
        self.config = config
        self.usage = Usage()
        self.cache = (
            ReplayCache(config.cache_dir, config.cache_mode)
            if config.cache_dir and config.cache_mode != "off"
            else None
        )
        self._http_client = http_client
        self._client: Any = None

    def _openai(self) -> Any:
        if self._client is None:
            import openai

            self._client = openai.OpenAI(
                base_url=self.config.base_url,
                api_key=self.config.resolved_key(),
                timeout=self.config.timeout_s,
                max_retries=self.config.max_retries,
                http_client=self._http_client,
            )
        return self._client

    def params(self, seed: int | None) -> dict[str, Any]:
        params: dict[str, Any] = {
            "temperature": self.config.temperature,
            "max_tokens": self.config.max_tokens,
        }
        if seed is not None:
            params["seed"] = seed
        return params

    def chat(self, messages: list[dict[str, str]], seed: int | None = None) -> ChatReply:
        params = self.params(seed)
        key = cache_key(self.config.model, messages, params)
        if self.cache is not None:
            try:
                entry = self.cache.get(key)
            except KeyError as e:
                self.usage.errors += 1
                raise LLMError(str(e)) from e
            if entry is not None:
                reply = ChatReply(
                    key=key,
                    content=entry["content"],
                    prompt_tokens=entry.get("prompt_tokens", 0),
                    completion_tokens=entry.get("completion_tokens", 0),
                    cached=True,
                )
                self._account(reply)
                return reply
        reply = self._call(key, messages, params)
        if self.cache is not None:
            self.cache.put(
                key,
                {
                    "model": self.config.model,
                    "messages": messages,
                    "params": params,
                    **reply.model_dump(include={"content", "prompt_tokens", "completion_tokens"}),
                },
            )
        return reply

    def _call(self, key: str, messages: list[dict[str, str]], params: dict[str, Any]) -> ChatReply:
        import openai

        started = time.monotonic()
        try:
            response = self._openai().chat.completions.create(
                model=self.config.model, messages=messages, **params
            )
        except openai.OpenAIError as e:
            self.usage.errors += 1
            raise LLMError(f"{type(e).__name__}: {e}") from e
        finally:
            self.usage.wall_s += time.monotonic() - started
        usage = response.usage
        reply = ChatReply(
            key=key,
            content=response.choices[0].message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
        )
        self._account(reply)
        return reply

    def _account(self, reply: ChatReply) -> None:
        u = self.usage
        u.calls += 1
        u.cache_hits += reply.cached
        u.prompt_tokens += reply.prompt_tokens
        u.completion_tokens += reply.completion_tokens
        # A replayed call costs nothing now, but the account shows what the recorded run cost.
        u.cost_usd += (
            reply.prompt_tokens * self.config.prompt_usd_per_mtok
            + reply.completion_tokens * self.config.completion_usd_per_mtok
        ) / 1e6
