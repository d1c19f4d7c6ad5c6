"""The one model layer of every policy: an OpenAI-compatible endpoint on loopback in front of the
real one, which records, replays, counts and caps every model call.

Every model-driven policy talks to a `ModelGateway` (AscendOptimizer and Best-of-N through
`ChatClient`, OpenEvolve's worker processes through their own OpenAI client), so:

- record/replay is the same for all: each call is keyed by (model, messages, sampling parameters)
  and by how often the run asked it before, and, with a cache directory, stored (`record`),
  answered from the store (`replay`: a miss is an error, the upstream is never asked, so a sweep
  reruns offline call for call) or both (`auto`);
- `usage` counts calls, cache hits, refusals and tokens the same way for every policy;
- the cap: at most `max_calls_per_evaluation` calls between two charged evaluations (the policy
  says how many it has spent through `charged`); the call after is refused (HTTP 403,
  `exhausted` set), so no policy can think for free without end;
- a model with nothing new ends the run, not the task: the call after the cap is refused, and
  `stopped` says so; the policy returns what it found, as a search that ran dry does;
- a fault is terminal: an upstream that still fails when `retry_s` has passed (408, 429, 5xx,
  no answer, a reply with no choices; Retry-After is followed) or a replay miss sets `failure`
  and refuses every later call, and the policy's `check()` after its run raises
  `ModelUnavailable` when the budget was left unspent, so a dead model is an infrastructure
  failure of the task, never a 1.000x.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any

from agents.llm.cache import CacheMiss, ReplayCache, cache_key
from agents.llm.client import CACHED_FIELD, LLMConfig, Usage
from agents.llm.server import ChatServer, error
from ascend_gym.policies import InfrastructureError

RETRY_STATUSES = (408, 429, 500, 502, 503, 504)
FIRST_BACKOFF_S = 1.0  # without Retry-After: 1, 2, 4 ... s between tries


class ModelUnavailable(InfrastructureError):
    """The model endpoint failed or a replay missed: the run stopped short of its budget for want
    of a model, which is not a result of the policy."""


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
        self.failure = ""  # the fault after which the model is no longer asked (terminal)
        self.stopped = ""  # why a model with nothing new is no longer asked (terminal)
        self.backoff_s = FIRST_BACKOFF_S
        self.keys: list[str] = []  # every answered call's key, in order
        self._asked: dict[str, int] = {}  # key -> times admitted: the repeat a call is
        self._streak = (-1, 0)  # (charged evaluations when counted, calls since)
        self._lock = threading.Lock()
        super().__init__(self.complete, config.model)

    def _admit(self) -> bool:
        """Count a call against the cap; False when the cap is reached."""
        with self._lock:
            spent = self.charged()
            charged_then, calls = self._streak
            calls = calls if spent == charged_then else 0
            if self.exhausted:
                self.refused += 1
                return False
            if calls >= self.config.max_calls_per_evaluation:
                self.refused += 1
                self.stopped = (
                    f"the model proposed nothing new in {calls} calls (it repeats itself or "
                    "answers without code); the bound is the llm setting "
                    f"max_calls_per_evaluation = {self.config.max_calls_per_evaluation}"
                )
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
            return 403, error(self.failure or self.stopped)
        with self._lock:
            repeat = self._asked.get(key, 0)
            self._asked[key] = repeat + 1
        started = time.monotonic()
        try:
            entry = self.cache.get(key, repeat) if self.cache is not None else None
        except CacheMiss as e:
            self._count(errors=1)
            self._fail(f"replay miss: {e}")
            return 404, error(str(e))
        if entry is not None:
            reply = {**entry["response"], CACHED_FIELD: True}
        else:
            status, reply = self._forward_with_retries(body)
            if status != 200:
                self._count(errors=1)
                self._fail(f"model endpoint {self.upstream}: {reply['error']['message']}")
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
                    repeat,
                )
        usage = reply.get("usage") or {}
        choices = reply.get("choices") or [{}]  # a recording from before such replies were faults
        self._count(
            calls=1,
            cache_hits=int(entry is not None),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            prompt_chars=sum(len(str(m.get("content") or "")) for m in messages),
            completion_chars=len(str((choices[0].get("message") or {}).get("content") or "")),
            wall_s=time.monotonic() - started,
        )
        with self._lock:
            self.keys.append(key)
        return 200, reply

    @property
    def exhausted(self) -> bool:
        """The model is no longer asked: a fault, or nothing new."""
        return bool(self.failure or self.stopped)

    def account(self) -> dict[str, Any]:
        """The run's model account, as `PolicyResult` fields (the same for every policy)."""
        u = self.usage
        return {
            "model": self.config.model,
            "stopped": self.stopped,
            "llm_calls": u.calls,
            "prompt_tokens": u.prompt_tokens,
            "completion_tokens": u.completion_tokens,
            "prompt_chars": u.prompt_chars,
            "completion_chars": u.completion_chars,
        }

    def check(self, spent: int, budget: int) -> None:
        """Raise `ModelUnavailable` when the model failed and the budget is left unspent."""
        if self.failure and spent < budget:
            raise ModelUnavailable(
                f"{self.failure} ({spent} of {budget} evaluations spent)", self.account()
            )

    def _fail(self, why: str) -> None:
        self.failure = self.failure or why

    def _forward_with_retries(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """One call upstream, tried again while it fails transiently and the next try starts
        within `retry_s` of the first."""
        started, backoff, tries = time.monotonic(), self.backoff_s, 0
        while True:
            status, reply, retry_after = self._forward(body)
            tries += 1
            if status not in RETRY_STATUSES:
                return status, reply
            wait = backoff if retry_after is None else retry_after
            backoff *= 2
            if time.monotonic() - started + wait > self.config.retry_s:
                reply["error"]["message"] += (
                    f" (given up after {tries} {'try' if tries == 1 else 'tries'} in {time.monotonic() - started:.0f} s"
                    + (f", Retry-After {retry_after:.0f} s" if retry_after is not None else "")
                    + f"; the bound is the llm setting retry_s = {self.config.retry_s:g} s, "
                    "--llm-retry-s)"
                )
                return status, reply
            time.sleep(wait)

    def _forward(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], float | None]:
        """(HTTP status, reply, the seconds Retry-After asks for) of one try."""
        request = urllib.request.Request(
            self.upstream + "/chat/completions",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.config.timeout_s) as answer:
                reply = json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, error(f"answered HTTP {e.code}: {e.read()[:300]!r}"), retry_after(e)
        except urllib.error.URLError as e:
            return 502, error(f"no answer: {e.reason}"), None
        except (OSError, ValueError) as e:
            return 502, error(f"no answer: {e}"), None
        choices = reply.get("choices") if isinstance(reply, dict) else None
        if not choices or not isinstance(choices[0], dict):
            # Some providers answer an overloaded or filtered request so: a fault, tried again.
            return 502, error(f"answered HTTP 200 without choices: {str(reply)[:300]}"), None
        return 200, reply, None

    def _count(self, **fields: float) -> None:
        with self._lock:
            u = self.usage
            for name, value in fields.items():
                setattr(u, name, getattr(u, name) + value)
            u.cost_usd = (
                u.prompt_tokens * self.config.prompt_usd_per_mtok
                + u.completion_tokens * self.config.completion_usd_per_mtok
            ) / 1e6


def retry_after(answer: urllib.error.HTTPError) -> float | None:
    """The wait an error answer's Retry-After header asks for (seconds or an HTTP date)."""
    value = (answer.headers or {}).get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None
