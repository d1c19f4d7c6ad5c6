"""OpenAI-compatible chat client (DeepSeek, OpenAI, vLLM, a local server: anything with
/v1/chat/completions) with timeouts, retries and token accounting, and the model settings every
policy shares (`LLMConfig`). Policies point it at their `ModelGateway` (agents.llm.gateway), the
one layer that records, replays and caps model calls."""

from __future__ import annotations

import os
import time
from typing import Any

from pydantic import BaseModel, Field, model_validator

from agents.llm.cache import CacheMode, cache_key
from ascend_gym.policies import PolicyConfig

# Set by the gateway on answers it served from its record.
CACHED_FIELD = "ascend_gym_cached"


class LLMConfig(PolicyConfig):
    """Model settings, the same fields and defaults for every policy (one temperature, one cap).

    The API key is read from the environment variable `api_key_env` when a call is made and is no
    field: configs are recorded in sweep.json and every result, which are meant to be shared."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "deepseek-chat"
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(8192, gt=0)
    timeout_s: float = Field(300.0, gt=0)  # one request to the endpoint
    # How long the gateway keeps retrying one call after a try fails (408, 429, 5xx, no answer):
    # it waits as the endpoint's Retry-After says, else 1, 2, 4 ... s, and gives up when the next
    # try would start past this bound. The only retries: the clients in front ask once.
    retry_s: float = Field(120.0, ge=0)
    # Prices for the cost account; 0 means "not priced" (a local server).
    prompt_usd_per_mtok: float = Field(0.0, ge=0)
    completion_usd_per_mtok: float = Field(0.0, ge=0)
    cache_dir: str = ""  # the gateway's record/replay store; empty = no record
    cache_mode: CacheMode = "auto"
    # Model calls allowed between two charged evaluations; the next is refused and the run ends.
    max_calls_per_evaluation: int = Field(8, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _no_secret(cls, data: Any) -> Any:
        if isinstance(data, dict) and "api_key" in data:
            raise ValueError(
                "api_key is never taken from a config (configs are recorded with the results): "
                "put the key in an environment variable and name it with api_key_env"
            )
        return data

    @model_validator(mode="after")
    def _a_cache_to_replay(self) -> LLMConfig:
        # Without a directory the gateway records nothing and replays nothing: it asks the model.
        if self.cache_mode in ("record", "replay") and not self.cache_dir:
            raise ValueError(f"cache_mode {self.cache_mode!r} without a cache_dir")
        return self

    def resolved_key(self) -> str:
        # Local servers accept any key; the openai client insists on a non-empty one.
        return os.environ.get(self.api_key_env, "") or "none"

    @property
    def call_timeout_s(self) -> float:
        """How long a client waits for the gateway's answer to one call: the gateway's tries
        and waits for it, and a margin, so the client never gives up first."""
        return 2 * self.timeout_s + self.retry_s + 10.0


class Usage(BaseModel):
    calls: int = 0  # calls answered (by the endpoint or the cache)
    cache_hits: int = 0
    errors: int = 0
    prompt_tokens: int = 0  # as the endpoint reports them (0 when it reports none)
    completion_tokens: int = 0
    # Measured by the gateway for every endpoint alike, so prompt sizes compare across policies.
    prompt_chars: int = 0
    completion_chars: int = 0
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
    """`chat(messages)` -> ChatReply, through the endpoint at `config.base_url` (a gateway)."""

    def __init__(self, config: LLMConfig):
        self.config = config
        self.usage = Usage()
        self._client: Any = None

    def _openai(self) -> Any:
        if self._client is None:
            import openai

            self._client = openai.OpenAI(
                base_url=self.config.base_url,
                api_key=self.config.resolved_key(),
                timeout=self.config.call_timeout_s,
                max_retries=0,  # the gateway retries (agents.llm.gateway); retries here stack
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
        import openai

        params = self.params(seed)
        key = cache_key(self.config.model, messages, params)
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
        if not response.choices:  # the gateway retries such replies; another endpoint may not
            self.usage.errors += 1
            raise LLMError(f"{self.config.base_url} answered without choices")
        usage = response.usage
        reply = ChatReply(
            key=key,
            content=response.choices[0].message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            cached=bool((response.model_extra or {}).get(CACHED_FIELD)),
        )
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
        return reply
