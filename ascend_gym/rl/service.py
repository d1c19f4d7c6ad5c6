"""The reward service: completions in, rewards out, through an AsyncDaemonPool.

One service owns an event loop on a thread of its own, the pool on that loop, and one budgeted
run on every daemon; `score` (blocking) and `ascore` (awaitable from any event loop) can be called
from any thread. Each operator's baseline is evaluated once, under the same run, and its latency
is the speedup's denominator. Without daemon addresses the service starts a local daemon with one
worker per core.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC, EvalRequest, EvalResult
from ascend_gym.aclient import AsyncDaemonPool, Outcome
from ascend_gym.client import LocalDaemon
from ascend_gym.rl import feedback
from ascend_gym.rl.parse import FormatError, parse_completion
from ascend_gym.rl.reward import DEFAULT_PRESET, PRESETS, Reward, RewardPreset, score
from npu_daemon.service.server import MAX_MESSAGE_BYTES


class Scored(BaseModel):
    """A completion's reward, with the daemon's result when it was evaluated."""

    reward: Reward
    result: EvalResult | None = None

    def feedback(self, best_us: float | None = None, max_chars: int = 1500) -> str:
        return feedback.render(self.reward, self.result, best_us, max_chars)


class RewardService:
    def __init__(
        self,
        daemons: Sequence[str] | None = None,
        preset: str | RewardPreset = DEFAULT_PRESET,
        soc: str = DEFAULT_SOC,
        seed: int = 0,
        run_id: str | None = None,
        budget: int = 1_000_000,
        deadline_s: float | None = None,
        workers: int | None = None,
    ):
        self.preset = PRESETS[preset] if isinstance(preset, str) else preset
        self.soc, self.seed, self.deadline_s = soc, seed, deadline_s
        self.run_id = run_id or f"rl-{uuid.uuid4().hex[:12]}"
        # workers None: the daemon's own default, one a core as far as the memory share allows.
        self.local = None if daemons else LocalDaemon(workers=workers, require_run_tokens=True)
        addresses = list(daemons) if daemons else [self.local.address]
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._baselines: dict[str, asyncio.Future] = {}
        self.best_us: dict[str, float] = {}  # operator -> fastest correct latency scored
        self.fingerprint: dict[str, str] = {}  # the daemons' backend, as the baselines report it
        self.pool = AsyncDaemonPool(addresses)
        self._run(self._open(budget))

    async def _open(self, budget: int) -> None:
        await self.pool.start()
        await self.pool.open_run(self.run_id, budget)

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def score(self, completions: Sequence[Any], operators: Sequence[str]) -> list[Scored]:
        """Blocking: one Scored per completion, in order."""
        return self._run(self._score(list(completions), list(operators)))

    async def ascore(self, completions: Sequence[Any], operators: Sequence[str]) -> list[Scored]:
        """Awaitable from any event loop (TRL's, an HTTP server's)."""
        future = asyncio.run_coroutine_threadsafe(
            self._score(list(completions), list(operators)), self._loop
        )
        return await asyncio.wrap_future(future)

    def request(self, package: OperatorPackage) -> EvalRequest:
        return EvalRequest(package=package, run_id=self.run_id, soc=self.soc, seed=self.seed)

    async def _baseline(self, operator: str) -> Outcome:
        """The baseline's outcome, evaluated once per operator (again after an infrastructure
        fault: a fault is not the baseline's latency)."""
        if operator not in self._baselines:
            self._baselines[operator] = asyncio.ensure_future(
                self.pool.evaluate(self.request(suite.resolve(operator)), self.deadline_s)
            )
        outcome: Outcome = await self._baselines[operator]
        if outcome.result is None:
            del self._baselines[operator]
        else:
            self.fingerprint = outcome.result.fingerprint
        return outcome

    async def _score(self, completions: list[Any], operators: list[str]) -> list[Scored]:
        if len(completions) != len(operators):
            raise ValueError(f"{len(completions)} completions for {len(operators)} operators")
        distinct = sorted(set(operators))
        try:
            bases = {op: suite.resolve(op) for op in distinct}
        except KeyError as e:
            raise ValueError(f"not an operator: {e.args[0]}") from None
        baselines = dict(zip(distinct, await asyncio.gather(*map(self._baseline, distinct))))
        scored: list[Scored | None] = [None] * len(completions)
        packages, where = [], []
        for i, (completion, operator) in enumerate(zip(completions, operators)):
            try:
                packages.append(parse_completion(completion, bases[operator]))
                where.append(i)
            except FormatError as e:
                reward = score(None, None, self.preset, str(e))
                scored[i] = Scored(reward=self._labelled(reward))
        requests = [self.request(p) for p in packages]
        for k in reversed(range(len(requests))):  # what the daemon would never read
            size = len(requests[k].model_dump_json().encode())
            if size > MAX_MESSAGE_BYTES:
                why = f"the completion's package is {size} bytes as a request, past the daemon's {MAX_MESSAGE_BYTES}"
                scored[where[k]] = Scored(
                    reward=self._labelled(score(None, None, self.preset, why))
                )
                del requests[k], where[k]
        async for outcome in self.pool.evaluate_many(requests, self.deadline_s):
            i = where[outcome.index]
            reward = self._reward(outcome, baselines[operators[i]])
            if outcome.result is not None and outcome.result.ok and outcome.result.latency_us:
                best = self.best_us.get(operators[i], float("inf"))
                self.best_us[operators[i]] = min(best, outcome.result.latency_us)
            scored[i] = Scored(reward=reward, result=outcome.result)
        return scored  # type: ignore[return-value]

    def _reward(self, outcome: Outcome, baseline: Outcome) -> Reward:
        """The candidate's reward against its baseline. A correct candidate whose baseline met an
        infrastructure fault cannot be given its speedup: no reward yet (retryable), not a 0."""
        base = baseline.result
        if base is None and self.preset.log_speedup and outcome.result and outcome.result.ok:
            fault = outcome.model_copy(update={"result": None, "fault": baseline.fault})
            return score(fault, None, self.preset).model_copy(
                update={"message": f"the baseline was not evaluated: {baseline.message}"}
            )
        baseline_us = base.latency_us if base is not None and base.ok else None
        return score(outcome, baseline_us, self.preset)

    def _labelled(self, reward: Reward) -> Reward:
        """A reward that was not evaluated, on the scale of this service's (simulated) ones."""
        return reward.model_copy(
            update={
                "simulated": self.fingerprint.get("backend", "sim") == "sim",
                "model": self.fingerprint.get("model", ""),
                "simulator": self.fingerprint.get("simulator", ""),
            }
        )

    def close(self) -> None:
        if self._loop.is_running():
            self._run(self.pool.close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
        if self.local is not None:
            self.local.close()

    def __enter__(self) -> RewardService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
