"""evaluate_many against real daemons: streaming, duplicates evaluated once, deadlines,
cancellation, BUSY retried, and a daemon killed mid-batch."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from ascend_core.protocol import EvalRequest, Status
from ascend_gym.aclient import AsyncDaemonPool, Fault, candidate_key, node_workers
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.service.store import Store

from .conftest import block_dim_variant


def requests(run_id: str, block_dims: list[int]) -> list[EvalRequest]:
    return [
        EvalRequest(package=block_dim_variant("level1/add", b), run_id=run_id) for b in block_dims
    ]


async def collect(addresses, reqs, **options):
    async with AsyncDaemonPool(addresses, **options) as pool:
        return [o async for o in pool.evaluate_many(reqs)]


def test_duplicates_are_evaluated_once_and_results_stream(daemon):
    dims = [8, 16, 8, 8, 24, 16, 8, 32]
    reqs = requests("aclient-dups", dims)
    outcomes = asyncio.run(collect([daemon], reqs))
    assert sorted(o.index for o in outcomes) == list(range(len(reqs)))
    assert all(o.result is not None and o.result.ok for o in outcomes)
    assert [o.seconds for o in outcomes] == sorted(o.seconds for o in outcomes)  # as they settle
    by_key = {}
    for o in outcomes:
        by_key.setdefault(candidate_key(reqs[o.index]), set()).add(o.result.latency_us)
    assert all(len(v) == 1 for v in by_key.values())
    ledger = DaemonClient(daemon).ledger("aclient-dups")
    assert ledger.evaluations == len(set(dims))  # each distinct candidate charged once
    assert ledger.cache_hits == len(dims) - len(set(dims))


def test_our_deadline_is_a_retryable_fault_not_a_result(daemon):
    reqs = requests("aclient-deadline", [3, 5, 3])

    async def run():
        async with AsyncDaemonPool([daemon]) as pool:
            return [o async for o in pool.evaluate_many(reqs, deadline_s=[0.01, 0.01, None])]

    outcomes = {o.index: o for o in asyncio.run(run())}
    for late in (outcomes[0], outcomes[1]):
        assert late.fault is Fault.DEADLINE and late.retryable and late.result is None
    assert outcomes[2].result is not None and outcomes[2].result.ok  # its own, longer deadline


def test_cancelling_the_consumer_keeps_the_pool_usable(daemon):
    async def run():
        async with AsyncDaemonPool([daemon]) as pool:
            batch = pool.evaluate_many(requests("aclient-cancel", [40, 40, 40, 7]))
            first = await anext(batch)
            await batch.aclose()  # leave the batch: what was not sent never is
            again = [o async for o in pool.evaluate_many(requests("aclient-cancel", [40, 9]))]
            return first, again

    first, again = asyncio.run(run())
    assert first.result is not None
    assert sorted(o.index for o in again) == [0, 1]
    assert all(o.result is not None and o.result.ok for o in again)


def test_busy_answers_are_retried_until_served(tmp_path: Path):
    # One worker and a queue of one: most of a window of six is answered BUSY at first.
    with LocalDaemon(workers=1, extra_args=["--max-queue", "1"]) as d:
        reqs = requests("aclient-busy", [2, 4, 6, 10, 12, 14])
        outcomes = asyncio.run(
            collect([d.address], reqs, window_per_worker=6, max_attempts=50, busy_backoff_s=0.2)
        )
    assert all(o.result is not None and o.result.status is Status.OK for o in outcomes)
    assert max(o.attempts for o in outcomes) > 1  # some were BUSY first, then served


def test_a_killed_daemon_s_items_are_re_served_by_another_once(tmp_path: Path):
    """Kill one of two daemons while it evaluates: its items come back from the other, every item
    gets a result, and the two ledgers together charge each distinct candidate once."""
    run = "aclient-kill"
    dims = [2, 3, 4, 5, 6, 7, 9, 10, 11, 12]
    reqs = requests(run, dims + dims[:4])  # with duplicates
    states = [tmp_path / "a", tmp_path / "b"]
    with (
        LocalDaemon(workers=1, state_dir=states[0]) as a,
        LocalDaemon(workers=1, state_dir=states[1]) as b,
    ):
        victim = {a.address: a, b.address: b}

        async def run_batch():
            killed = ""
            outcomes = []
            async with AsyncDaemonPool([a.address, b.address], heartbeat_s=0.5) as pool:
                async for o in pool.evaluate_many(reqs):
                    outcomes.append(o)
                    if not killed and o.daemon:  # kill the first answerer while it holds more work
                        killed = o.daemon
                        os.kill(victim[killed].process.pid, signal.SIGKILL)
                # The run submits again what the dead daemon answered: the pool's copy, free.
                again = [
                    r.model_copy(update={"request_id": f"again-{i}"}) for i, r in enumerate(reqs)
                ]
                answered = [again[o.index] for o in outcomes if o.daemon == killed]
                repeats = [o async for o in pool.evaluate_many(answered)]
            return killed, outcomes, repeats

        killed, outcomes, repeats = asyncio.run(run_batch())
        survivor = b.address if killed == a.address else a.address
        survivor_ledger = DaemonClient(survivor).ledger(run)
    assert sorted(o.index for o in outcomes) == list(range(len(reqs)))
    assert all(o.result is not None and o.result.ok for o in outcomes)
    assert any(o.attempts > 1 and o.daemon == survivor for o in outcomes)  # re-served
    dead_state = states[0] if killed == a.address else states[1]
    dead_ledger = Store(dead_state / "state.db").ledger(run)
    answered_by_dead = {
        candidate_key(reqs[o.index])
        for o in outcomes
        if o.daemon == killed and not o.result.cache_hit
    }
    assert dead_ledger.evaluations == len(answered_by_dead)  # nothing charged that was not answered
    assert dead_ledger.evaluations + survivor_ledger.evaluations == len(set(dims))
    assert repeats and all(o.result.cache_hit and o.result.ok and not o.daemon for o in repeats)


def test_one_daemon_per_ray_node():
    import ray

    from ascend_gym.aclient import place_daemons

    ray.init(include_dashboard=False, log_to_driver=False, num_cpus=2)
    try:
        addresses, actors = place_daemons()
        assert len(addresses) == len(ray.nodes()) == 1
        outcomes = asyncio.run(collect(addresses, requests("aclient-ray", [8])))
        assert outcomes[0].result.ok
        assert asyncio.run(_workers(addresses))[addresses[0]] == 2
    finally:
        ray.shutdown()


def test_a_nodes_daemon_gets_the_workers_its_memory_fits():
    # place_daemons gave each node's daemon its CPU count: 64 cores and 16 GiB leave each of 128
    # sandboxed processes 112 MiB, below the smallest case's 1,024, and the daemon refused to start.
    assert node_workers("sim-guest", 64, memory_mb=16384) == 1
    assert node_workers("sim", 16, memory_mb=32768) == 3
    assert node_workers("sim-guest", 2, memory_mb=1 << 20) == 2  # the CPUs, where memory abounds
    assert node_workers("cann", 64, memory_mb=16384) == 64  # no memory share on the device


async def _workers(addresses):
    async with AsyncDaemonPool(addresses) as pool:
        return pool.workers
