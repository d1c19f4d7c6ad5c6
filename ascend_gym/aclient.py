"""Asynchronous evaluation over several daemons: many requests in flight, results as they finish.

`AsyncDaemonPool.evaluate_many(requests)` keeps every daemon's workers busy (a window of
`window_per_worker` fresh requests per worker, so a request is already queued when a worker frees)
and yields an `Outcome` per request as soon as it is settled. A request is routed by its candidate
key: to the daemon that already holds that candidate (evaluated, or evaluating it now: the daemon
answers a duplicate from its cache or attaches it to the running evaluation, so duplicate
completions of a group are evaluated once), else to the first daemon with room in the key's
rendezvous-hash order.

An outcome is either the candidate's (`result`: an EvalResult whose status the candidate earned,
the thing a reward is computed from) or the infrastructure's (`fault`: BUSY, a lost daemon, our
own deadline, a daemon error). Infrastructure faults are retried on another daemon with the same
request id while the item's deadline and attempts allow; one that is still standing comes back
with `retryable = True` and no result, never as a reward of 0.

A daemon is lost when it has work of ours and has not said anything for 3 heartbeats (its main
loop answers health probes even while every worker is busy); its items go to the other daemons.
It is probed again after `down_s` and serves again when it answers. A killed daemon committed
what it charged before answering (docs/daemon.md, Cache), and an evaluation it was running when
it died was never charged, so the re-served items are charged once, where they are answered; a
run's duplicate of a candidate the lost daemon answered is answered from the pool's copy, free,
as that daemon's cache would have.

Cancelling the consumer (leaving the `async for`, or cancelling its task) drops what was not sent;
what a daemon is already evaluating finishes there (the protocol has no cancel message), and its
late answers are dropped.

`place_daemons` starts one daemon per Ray node, its workers the node's CPUs as far as the node's
memory gives each the daemon's memory share (`node_workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import json
import os
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import zmq
import zmq.asyncio
from pydantic import BaseModel

from ascend_core.protocol import (
    DEFAULT_BACKEND,
    EvalRequest,
    EvalResult,
    HealthReply,
    HealthRequest,
    OpenRunReply,
    OpenRunRequest,
    Status,
)
from ascend_gym.client import KEYS_ENV, DaemonError, _client_keys

MAX_ANSWERS_KEPT = 100_000  # answers the pool keeps to stand in for a lost daemon's cache


class Fault(str, enum.Enum):
    """Why an item has no candidate outcome. Every fault but REJECTED is retryable."""

    BUSY = "busy"  # every daemon's queue was full
    LOST = "lost"  # the daemon holding it fell silent
    DEADLINE = "deadline"  # our per-item deadline passed
    DAEMON_ERROR = "daemon_error"  # the daemon's own fault (a worker died, a sandbox step failed)
    REJECTED = "rejected"  # not a valid request for the daemon (a run token it does not know)


class Outcome(BaseModel):
    """One request's settlement: the candidate's result, or an infrastructure fault."""

    index: int  # position in the requests given to evaluate_many
    request_id: str
    result: EvalResult | None = None
    fault: Fault | None = None
    message: str = ""
    daemon: str = ""  # the address that answered (or held it last)
    attempts: int = 0  # sends to a daemon
    seconds: float = 0.0  # from evaluate_many's start to this outcome

    @property
    def retryable(self) -> bool:
        return self.result is None and self.fault is not Fault.REJECTED


def candidate_key(request: EvalRequest) -> str:
    """What makes two requests the same evaluation for a daemon's cache (run aside)."""
    what = [
        request.package.content_hash(),
        request.soc,
        str(request.seed),
        ",".join(s.value for s in request.stages),
        ",".join(request.cases or []),
        request.timing,
        request.timing_protocol,
        request.timeouts.model_dump_json(),
    ]
    return hashlib.sha256("\0".join(what).encode()).hexdigest()


@dataclass
class _Item:
    index: int
    request: EvalRequest
    key: str
    deadline: float
    events: asyncio.Queue  # its batch's: (daemon, item, reply or None when lost)
    attempts: int = 0
    not_before: float = 0.0  # a BUSY item waits a little before its next send
    fault: Fault | None = None
    message: str = ""


@dataclass
class _Daemon:
    address: str
    sock: zmq.asyncio.Socket
    workers: int = 1
    alive: bool = False
    heard: float = 0.0  # last message from it
    died: float = 0.0
    fresh: set[str] = field(default_factory=set)  # request ids counted against the window
    held: dict[str, _Item] = field(default_factory=dict)  # request id -> item sent to it


class AsyncDaemonPool:
    """Daemons addressed by `addresses`, for use inside one asyncio event loop."""

    def __init__(
        self,
        addresses: Iterable[str],
        window_per_worker: int = 2,
        heartbeat_s: float = 1.0,
        down_s: float = 10.0,
        max_attempts: int = 4,
        busy_backoff_s: float = 0.5,
        keys: str | Path | None = None,
    ):
        self.addresses = list(dict.fromkeys(addresses))
        if not self.addresses:
            raise ValueError("a daemon pool needs at least one address")
        self.window_per_worker, self.heartbeat_s, self.down_s = (
            window_per_worker,
            heartbeat_s,
            down_s,
        )
        self.max_attempts, self.busy_backoff_s = max_attempts, busy_backoff_s
        keys = keys or os.environ.get(KEYS_ENV)
        self._curve = _client_keys(Path(keys)) if keys else None
        self._ctx = zmq.asyncio.Context()
        self._daemons = {a: _Daemon(a, self._socket(a)) for a in self.addresses}
        self._holder: dict[str, str] = {}  # candidate key -> address that evaluated or holds it
        # (run id, candidate key) -> (address, answer): a run's duplicate of a candidate a now
        # lost daemon answered is answered from here, free, as that daemon's cache would have.
        self._answered: OrderedDict[tuple[str, str], tuple[str, EvalResult]] = OrderedDict()
        self._tokens: dict[tuple[str, str], str] = {}  # (address, run id) -> token
        self._replies: dict[str, asyncio.Future] = {}  # control request id -> its reply
        self._receivers: dict[str, asyncio.Task] = {}
        self._watcher: asyncio.Task | None = None

    def _socket(self, address: str) -> zmq.asyncio.Socket:
        sock = self._ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        if self._curve is not None:
            sock.curve_publickey, sock.curve_secretkey, sock.curve_serverkey = self._curve
        sock.connect(address)
        return sock

    # ---- life cycle ----------------------------------------------------------------------------

    async def start(self, timeout_s: float = 10.0) -> None:
        """Start listening and read every daemon's worker count; at least one must answer."""
        for d in self._daemons.values():
            self._receivers[d.address] = asyncio.create_task(self._receive(d))
        self._watcher = asyncio.create_task(self._watch())
        answers = await asyncio.gather(
            *(self._health(d, timeout_s) for d in self._daemons.values()), return_exceptions=True
        )
        if not any(isinstance(a, HealthReply) for a in answers):
            await self.close()
            raise DaemonError(f"no daemon of {','.join(self.addresses)} answered")

    async def close(self) -> None:
        tasks = [*self._receivers.values(), *([self._watcher] if self._watcher else [])]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        self._receivers.clear()
        for d in self._daemons.values():
            d.sock.close(0)
        self._ctx.term()

    async def __aenter__(self) -> AsyncDaemonPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def workers(self) -> dict[str, int]:
        """Live daemons and their workers."""
        return {a: d.workers for a, d in self._daemons.items() if d.alive}

    # ---- control messages ----------------------------------------------------------------------

    async def _ask(self, d: _Daemon, message: BaseModel, timeout_s: float) -> dict:
        future = asyncio.get_running_loop().create_future()
        self._replies[message.request_id] = future
        try:
            await d.sock.send_multipart([b"", message.model_dump_json().encode()])
            return await asyncio.wait_for(future, timeout_s)
        except TimeoutError as e:
            raise DaemonError(f"{d.address} did not answer within {timeout_s:g} s") from e
        finally:
            self._replies.pop(message.request_id, None)

    async def _health(self, d: _Daemon, timeout_s: float) -> HealthReply:
        reply = HealthReply.model_validate(await self._ask(d, HealthRequest(), timeout_s))
        d.workers = max(1, reply.workers_alive)
        return reply

    async def open_run(self, run_id: str, budget: int, timeout_s: float = 5.0) -> list[str]:
        """Open a budgeted run on every live daemon (each holds the budget alone); the pool
        attaches each daemon's token to the run's requests it sends there. Returns the addresses."""
        opened = []
        for d in self._daemons.values():
            if not d.alive:
                continue
            reply = await self._ask(d, OpenRunRequest(run_id=run_id, budget=budget), timeout_s)
            if reply.get("kind") != "run_opened":
                raise DaemonError(f"{d.address} did not open run {run_id}: {reply.get('message')}")
            self._tokens[(d.address, run_id)] = OpenRunReply.model_validate(reply).token
            opened.append(d.address)
        return opened

    # ---- the daemons' side ---------------------------------------------------------------------

    async def _receive(self, d: _Daemon) -> None:
        """Every message from one daemon: results to their items, replies to their askers."""
        while True:
            reply = json.loads((await d.sock.recv_multipart())[-1])
            d.heard, d.alive = time.monotonic(), True
            rid = reply.get("request_id", "")
            if rid in self._replies:
                if not self._replies[rid].done():
                    self._replies[rid].set_result(reply)
                continue
            item = d.held.pop(rid, None)
            d.fresh.discard(rid)
            if item is not None:
                item.events.put_nowait((d, item, reply))

    async def _watch(self) -> None:
        """Probe every daemon each heartbeat: a daemon holding work that stays silent for three
        heartbeats is lost (its items are resent elsewhere); a lost one is probed after down_s."""
        while True:
            now = time.monotonic()
            for d in self._daemons.values():
                if d.alive and d.held and now - d.heard > 3 * self.heartbeat_s:
                    self._lose(d)
                elif d.alive or now - d.died >= self.down_s:
                    with contextlib.suppress(zmq.Again):
                        probe = HealthRequest().model_dump_json().encode()
                        await d.sock.send_multipart([b"", probe], zmq.NOBLOCK)
            await asyncio.sleep(self.heartbeat_s)

    def _lose(self, d: _Daemon) -> None:
        """Its items go back to the batch; a fresh socket, so nothing queued for it is delivered
        to a daemon that comes back at that address (it would evaluate and charge it again)."""
        d.alive, d.died = False, time.monotonic()
        self._receivers[d.address].cancel()
        d.sock.close(0)
        d.sock = self._socket(d.address)
        self._receivers[d.address] = asyncio.create_task(self._receive(d))
        lost, d.held = d.held, {}
        d.fresh.clear()
        for key in [k for k, a in self._holder.items() if a == d.address]:
            del self._holder[key]
        for item in lost.values():
            item.fault, item.message = Fault.LOST, f"{d.address} fell silent"
            item.events.put_nowait((d, item, None))

    # ---- routing -------------------------------------------------------------------------------

    def _route(self, item: _Item) -> _Daemon | None:
        holder = self._daemons.get(self._holder.get(item.key, ""))
        if holder is not None and holder.alive:
            return holder  # answered from its cache, or attached to its running evaluation
        ranked = sorted(
            (d for d in self._daemons.values() if d.alive),
            key=lambda d: hashlib.sha256(f"{item.key}/{d.address}".encode()).digest(),
        )
        for d in ranked:
            if len(d.fresh) < d.workers * self.window_per_worker:
                return d
        return None

    async def _send(self, d: _Daemon, item: _Item) -> None:
        request = item.request
        token = self._tokens.get((d.address, request.run_id))
        if token:
            request = request.model_copy(update={"token": token})
        item.attempts += 1
        rid = request.request_id
        if self._holder.get(item.key) != d.address:
            d.fresh.add(rid)
            self._holder[item.key] = d.address
        if not d.held:
            d.heard = max(d.heard, time.monotonic())  # silence counts from the first send
        d.held[rid] = item
        try:
            await d.sock.send_multipart([b"", request.model_dump_json().encode()], zmq.NOBLOCK)
        except zmq.Again:
            self._lose(d)

    # ---- the batch -----------------------------------------------------------------------------

    async def evaluate_many(
        self,
        requests: Iterable[EvalRequest],
        deadline_s: float | Sequence[float | None] | None = None,
    ) -> AsyncIterator[Outcome]:
        """Yield one Outcome per request, in the order they settle. `deadline_s` bounds each item
        from the call: one bound for all, or one per request (None: the request's own timeouts,
        plus a minute)."""
        if self._watcher is None:
            raise RuntimeError("start the pool first (async with AsyncDaemonPool(...))")
        started = time.monotonic()
        events: asyncio.Queue = asyncio.Queue()
        pending: deque[_Item] = deque()
        for i, r in enumerate(requests):
            bound = deadline_s[i] if isinstance(deadline_s, Sequence) else deadline_s
            bound = bound or (
                60.0 + r.timeouts.build_s + r.timeouts.run_s * max(1, len(r.package.spec.cases))
            )
            pending.append(_Item(i, r, candidate_key(r), started + bound, events))
        out = len(pending)
        try:
            while out:
                now = time.monotonic()
                for outcome in self._expire(pending, now, started):
                    out -= 1
                    yield outcome
                waiting: deque[_Item] = deque()
                while pending:
                    item = pending.popleft()
                    copy = self._copy(item, started)
                    if copy is not None:
                        out -= 1
                        yield copy
                        continue
                    d = self._route(item) if item.not_before <= now else None
                    if d is None:
                        waiting.append(item)
                        continue
                    await self._send(d, item)
                pending = waiting
                try:
                    d, item, reply = await asyncio.wait_for(events.get(), self.heartbeat_s)
                except TimeoutError:
                    continue
                if item.deadline <= time.monotonic():  # answered past its deadline: settled as late
                    pending.append(item)
                    continue
                outcome = self._settle(d, item, reply, started)
                if outcome is None:
                    pending.appendleft(item)
                    continue
                out -= 1
                yield outcome
        finally:
            for d in self._daemons.values():  # cancelled or done: drop what is still ours
                for rid in [rid for rid, it in d.held.items() if it.events is events]:
                    del d.held[rid]
                    d.fresh.discard(rid)

    def _copy(self, item: _Item, started: float) -> Outcome | None:
        """The run's earlier answer for this candidate, when the daemon that gave it is lost."""
        known = self._answered.get((item.request.run_id, item.key))
        if known is None or self._daemons[known[0]].alive:
            return None
        update = {"request_id": item.request.request_id, "cache_hit": True}
        return self._outcome(item, started, result=known[1].model_copy(update=update))

    def _remember(self, item: _Item, address: str, result: EvalResult) -> None:
        self._answered[(item.request.run_id, item.key)] = (address, result)
        self._answered.move_to_end((item.request.run_id, item.key))
        if len(self._answered) > MAX_ANSWERS_KEPT:
            self._answered.popitem(last=False)

    def _expire(self, pending: deque[_Item], now: float, started: float) -> list[Outcome]:
        """Items past their deadline, waiting or held by a daemon, settled as DEADLINE faults."""
        late = [it for it in pending if it.deadline <= now]
        for it in late:
            pending.remove(it)
        for d in self._daemons.values():
            for rid, it in list(d.held.items()):
                if it.deadline <= now:
                    del d.held[rid]
                    d.fresh.discard(rid)
                    late.append(it)
        return [
            self._outcome(
                it, started, fault=Fault.DEADLINE, message=it.message or "our deadline passed"
            )
            for it in late
        ]

    def _settle(
        self, d: _Daemon, item: _Item, reply: dict | None, started: float
    ) -> Outcome | None:
        """The item's outcome, or None to send it again (a retryable fault with attempts left)."""
        if reply is not None and reply.get("kind") == "error":
            return self._outcome(
                item, started, d, fault=Fault.REJECTED, message=reply.get("message", "")
            )
        if reply is not None:
            result = EvalResult.model_validate(reply)
            if not result.daemon_fault:
                self._remember(item, d.address, result)
                return self._outcome(item, started, d, result=result)
            busy = result.status is Status.BUSY
            item.fault = Fault.BUSY if busy else Fault.DAEMON_ERROR
            item.message = f"{d.address}: {result.message}"
            if self._holder.get(item.key) == d.address:
                del self._holder[item.key]  # it holds no answer for this candidate
            if busy:
                item.not_before = time.monotonic() + self.busy_backoff_s
        if item.attempts >= self.max_attempts:
            return self._outcome(item, started, d, fault=item.fault, message=item.message)
        return None

    def _outcome(self, item: _Item, started: float, d: _Daemon | None = None, **what) -> Outcome:
        return Outcome(
            index=item.index,
            request_id=item.request.request_id,
            daemon=d.address if d else "",
            attempts=item.attempts,
            seconds=time.monotonic() - started,
            **what,
        )

    async def evaluate(self, request: EvalRequest, deadline_s: float | None = None) -> Outcome:
        async for outcome in self.evaluate_many([request], deadline_s):
            return outcome
        raise AssertionError("evaluate_many yields one outcome per request")


def place_daemons(
    backend: str = DEFAULT_BACKEND,
    keys: str | Path | None = None,
    extra_args: list[str] | None = None,
) -> tuple[list[str], list[object]]:
    """One daemon per alive node of the connected Ray cluster, its workers the node's CPUs as far
    as the node's memory allows (`node_workers`, computed on the node).

    Returns the addresses and the Ray actors holding the daemons (drop them, or `ray.kill` them, to
    stop the daemons). A daemon on another node listens beyond loopback, which needs CURVE keys
    (`ascend-gym daemon keygen DIR`, the same DIR readable on every node); without keys the
    cluster must be this one node, and its daemon listens on loopback."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [n for n in ray.nodes() if n["Alive"]]
    if keys is None and len(nodes) > 1:
        raise ValueError(
            "daemons on several nodes listen beyond loopback: pass keys=DIR "
            "(ascend-gym daemon keygen DIR)"
        )
    actor = ray.remote(num_cpus=0)(_DaemonActor)
    actors = [
        actor.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
        ).remote(
            backend,
            int(n["Resources"].get("CPU", 1)),
            "127.0.0.1" if keys is None else n["NodeManagerAddress"],
            [*(["--keys", str(keys)] if keys else []), *(extra_args or [])],
        )
        for n in nodes
    ]
    return ray.get([a.address.remote() for a in actors]), actors


def node_workers(backend: str, cpus: int, memory_mb: int | None = None) -> int:
    """A node's daemon's workers: its `cpus`, but for the simulator no more than leave each
    sandboxed process the daemon's default memory share of `memory_mb` (this machine's physical
    memory by default; `default_workers`): the CPU count alone made a node of many cores and
    little memory refuse to start its daemon."""
    if backend not in ("sim", "sim-guest"):
        return cpus
    from npu_daemon.backends.sim.backend import default_workers, physical_mb

    return default_workers(memory_mb or physical_mb(), cpus)


class _DaemonActor:
    """Holds one LocalDaemon on its node for as long as the actor lives."""

    def __init__(self, backend: str, cpus: int, host: str, extra_args: list[str]):
        from ascend_gym.client import LocalDaemon

        workers = node_workers(backend, cpus)  # here, on the node: its memory
        self.daemon = LocalDaemon(backend, workers, bind=f"tcp://{host}:*", extra_args=extra_args)

    def address(self) -> str:
        return self.daemon.address
