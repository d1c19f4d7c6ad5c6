"""The one model layer of every policy: an OpenAI-compatible endpoint on loopback in front of the
real one, which records, replays, counts and caps every model call.

Every model-driven policy talks to a `ModelGateway` (AscendOptimizer and Best-of-N through
`ChatClient`, OpenEvolve's worker processes through their own OpenAI client), so:

- record/replay is the same for all: each call is keyed by (model, messages, sampling parameters)
  and, with a cache directory, stored (`record`), answered from the store (`replay`: a miss is an
  error, the upstream is never asked, so a sweep reruns offline call for call) or both (`auto`);
- `usage` counts calls, cache hits, refusals and tokens the same way for every policy;
- the cap: at most `max_calls_per_evaluation` calls between two charged evaluations (the policy
  says how many it has spent through `charged`); the call after is refused (HTTP 403,
  `exhausted` set), so no policy can think for free without end.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from agents.llm.cache import CacheMiss, ReplayCache, cache_key
from agents.llm.client import CACHED_FIELD, LLMConfig, Usage
from agents.llm.server import ChatServer, error


class ModelGateway(ChatServer):
    """Serves `base_url` until `close()`; `upstream` is the real endpoint's base URL."""

    def __init__(
        self,
        config: LLMConfig,
        upstream: str = "",
        charged: Callable[[], int] = lambda: 0,
        api_key: str = "",
    ):
        self.config, self.charged = config, charged
        self.upstream = (upstream or config.base_url).rstrip("/")
        self.api_key = api_key or config.resolved_key()
        self.cache = (
            ReplayCache(config.cache_dir, config.cache_mode)
            if config.cache_dir and config.cache_mode != "off"
            else None
        )
        self.usage = Usage()
        self.refused = 0
        self.exhausted = False
        self.keys: list[str] = []  # every answered call's key, in order
        self._streak = (-1, 0)  # (charged evaluations when counted, calls since)
        self._lock = threading.Lock()
        super().__init__(self.complete, config.model)

    def _admit(self) -> bool:
        """Count a call against the cap; False when the cap is reached."""
        with self._lock:
            spent = self.charged()
            charged_then, calls = self._streak
            calls = calls if spent == charged_then else 0
            if calls >= self.config.max_calls_per_evaluation:
                self.refused += 1
                self.exhausted = True
                return False
            self._streak = (spent, calls + 1)
            return True

    def complete(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Answer one chat-completions request body: (HTTP status, JSON reply)."""
        messages = body.get("messages")
        if not isinstance(messages, list):
            return 400, error("the request has no messages")
        params = {k: v for k, v in body.items() if k not in ("model", "messages") and v is not None}
        key = cache_key(body.get("model", self.config.model), messages, params)
        if not self._admit():
            return 403, error(
                f"model-call cap reached: {self.config.max_calls_per_evaluation} calls "
                "without a charged evaluation"
            )
        started = time.monotonic()
        try:
            entry = self.cache.get(key) if self.cache is not None else None
        except CacheMiss as e:
            self._count(errors=1)
            return 404, error(str(e))
        if entry is not None:
            reply = {**entry["response"], CACHED_FIELD: True}
        else:
            status, reply = self._forward(body)
            if status != 200:
                self._count(errors=1)
                return status, reply
            if self.cache is not None:
                self.cache.put(
                    key,
                    {
                        "model": body.get("model"),
                        "messages": messages,
                        "params": params,
                        "response": reply,
                    },
                )
        usage = reply.get("usage") or {}
        self._count(
            calls=1,
            cache_hits=int(entry is not None),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            wall_s=time.monotonic() - started,
        )
        with self._lock:
            self.keys.append(key)
        return 200, reply

    def _forward(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.upstream + "/chat/completions",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.config.timeout_s) as answer:
                return 200, json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, error(f"upstream answered {e.code}: {e.read()[:500]!r}")
        except (OSError, ValueError) as e:
            return 502, error(f"upstream {self.upstream} failed: {e}")

    def _count(self, **fields: float) -> None:
        with self._lock:
            u = self.usage
            for name, value in fields.items():
                setattr(u, name, getattr(u, name) + value)
            u.cost_usd = (
                u.prompt_tokens * self.config.prompt_usd_per_mtok
                + u.completion_tokens * self.config.completion_usd_per_mtok
            ) / 1e6
