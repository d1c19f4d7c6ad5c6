"""Sweeps: every (policy, op, seed) is a Ray task running the policy in an env against a daemon.

A sweep lives in one results directory (`ascend_gym.records` describes the files): `sweep.json`
(identity and config; a rerun must ask for the same budget and soc, and may add ops, policies or
seeds), `results.jsonl` (one `SweepRecord` per finished task), `attempts.jsonl` (one line per task
start) and `candidates/` (each task's best candidate, sources included).

Resuming: a rerun skips every task that has a successful record. A task that was started but has
no record was interrupted, and a task that failed (its policy raised, or a daemon or Ray worker
failed under it) runs again from the start under a new run_id (`.../a2`), so its result is
produced under exactly one budget; the new record lists the run_ids of the abandoned attempts.

Infrastructure is checked, never scored: before a sweep starts every daemon must answer, and a
task a daemon or worker failed is recorded with `failure="infra"`, reported as such, and retried
by the next run.

Equal budgets: each task opens its run on the daemon with the sweep's budget (a run token), so
the daemon refuses the policy's evaluation budget + 1. After a task, the daemon ledger for its
run_id is read back and stored in the record (`ledger`); `budget_ok` says the ledger charged no
more than the budget and agrees with the policy's own count. With several daemons each task runs
through a pool (least-loaded, failover): a run that moved off a dead daemon is accounted by the
pool's receipts for that daemon (`served_by` lists the daemons that charged it).

Fresh inputs: the daemon checks a search's candidates on fixed inputs (so they cache), so a task's
faster best is checked (not timed) once more on RECHECK_SEEDS input seeds the search never saw
(derived from the operator: every policy's best faces the same ones), in a run of its own
(`<run_id>/recheck`, charged to no policy). A best that fails is recorded (`recheck`) and counts
as its baseline.
"""

from __future__ import annotations

import contextlib
import logging
import os
import platform
import signal
import socket
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ascend_gym
from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_TIMING_PROTOCOL, UNCHARGED, Ledger
from ascend_gym import metrics
from ascend_gym.client import DaemonClient, DaemonError, LocalDaemon
from ascend_gym.env import BaselineRejected
from ascend_gym.policies import InfrastructureError, episode
from ascend_gym.records import (
    ATTEMPTS,
    RESULTS,
    SWEEP,
    Attempt,
    Key,
    SweepConfig,
    SweepRecord,
    latest,
    read_jsonl,
    read_records,
    save_candidate,
)
from ascend_gym.validation import Claim, recheck, recheck_seeds

if TYPE_CHECKING:
    from ascend_gym.env import EpisodeView

__all__ = ["SweepConfig", "SweepRecord", "read_jsonl", "latest", "run_bench", "run_one", "table"]

RAY_START_ATTEMPTS = 3
RAY_PROBE_S = 5.0  # a --ray-address that accepts no connection in this time has no cluster
# Input seeds a faster best is rechecked on. About a third of fresh draws expose ascend-real-v1's
# core-capped index searches (icamax, isamax; benchmarks/recheck_rate.py): one seed misses most
# of them, four about one in five. Each seed is a check without timing; a best stops at its
# first failure.
RECHECK_SEEDS = 4


def _short(op: str) -> str:
    return op.removeprefix("op://").replace("/", ":")


def run_id(sweep_id: str, policy: str, op: str, seed: int, attempt: int) -> str:
    return f"sweep-{sweep_id}/{policy}/{_short(op)}/s{seed}/a{attempt}"


def versions() -> dict[str, str]:
    out = {"ascend_gym": ascend_gym.__version__, "python": platform.python_version()}
    for dist in ("ray", "openevolve", "openai", "gymnasium"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def ledger_usage(client: DaemonClient, run: str) -> Ledger | None:
    """The daemon ledger's row for a run, or None from a daemon that cannot be asked."""
    ask = getattr(client, "ledger", None)
    if ask is None:
        return None
    try:
        return ask(run).account()
    except DaemonError:
        return None


def daemon_facts(client: DaemonClient) -> dict[str, Any]:
    """Backend, simulated flag and versions of the daemon that served a task."""
    try:
        stats = client.stats()
    except DaemonError:
        return {}
    return {
        "backend": stats.backend,
        "simulated": stats.simulated,
        "daemon_versions": stats.versions,
    }


def check_daemons(endpoints: list[str], timeout_s: float = 5.0) -> None:
    """Every endpoint must answer a health probe and be serving; otherwise nothing starts."""
    silent = []
    for address in endpoints:
        client = DaemonClient(address)
        try:
            if not client.health(timeout_s=timeout_s).ok:
                silent.append(f"{address} (not serving)")
        except DaemonError:
            silent.append(address)
        finally:
            client.close()
    if silent:
        raise DaemonError(
            f"no answer from daemon {', '.join(silent)}; start it (`ascend-gym daemon --bind ...`) "
            "or leave out --daemons to start a local one"
        )


# ---- one task ------------------------------------------------------------------------------------


def run_one(
    policy: str,
    operator: str,
    seed: int,
    budget: int,
    daemon: str,
    soc: str,
    run: str,
    config: dict[str, Any],
    timing: str = "auto",
    timing_protocol: str = DEFAULT_TIMING_PROTOCOL,
) -> tuple[SweepRecord, OperatorPackage | None]:
    """One (policy, op, seed) and its best candidate: a failure is recorded, never raised."""
    import gymnasium as gym

    from ascend_gym.policies import make_policy

    started = time.time()
    record = SweepRecord(
        policy=policy,
        operator=operator,
        seed=seed,
        budget=budget,
        soc=soc,
        timing=timing,
        timing_protocol=timing_protocol,
        run_id=run,
        daemon=daemon,
        config=config,
        versions=versions(),
    )
    best: OperatorPackage | None = None
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator=operator,
        budget=budget,
        soc=soc,
        daemon=daemon,
        run_id=run,
        timing=timing,
        timing_protocol=timing_protocol,
    )
    view = episode(env)
    try:
        # The env opens the run at reset with the budget: the daemon then serves it only with the
        # token and refuses evaluation budget + 1, whatever the policy does.
        result = make_policy(policy, **config).run(env, seed)
        record = SweepRecord.model_validate(
            {
                **record.model_dump(),
                **result.model_dump(mode="json"),
                "policy": policy,  # the sweep's key, also for a policy of one's own named otherwise
                "operator": operator,
                "ok": True,
            }
        )
        best = _best_package(result, view)
        record.baseline_head_us = view.baseline_head_us  # the heads the env saw
        if record.best_us == view.best_us:  # else a best found outside the env: its result's head
            record.best_head_us = view.best_head_us
        if best is not None and metrics.record_speedup(record) > 1.0:
            claim = Claim(
                operator=operator, package=best, best_us=record.best_us, soc=soc,
                timing=timing, timing_protocol=timing_protocol,
            )  # fmt: skip
            fresh = recheck_seeds(operator, RECHECK_SEEDS, view.eval_seed)
            record.recheck = recheck(claim, view.client, f"{run}/recheck", fresh)
        if error := fault_error(record):
            record.ok, record.failure, record.error = False, "infra", error
    except Exception as e:  # noqa: BLE001 - one failed task must not end the sweep
        record.ok = False
        record.error = f"{type(e).__name__}: {e}"[:2000]
        record.failure = (
            "infra"
            if _infra(e, view)
            else "operator"
            if isinstance(e, BaselineRejected)
            else "policy"
        )
        if view.package is not None:  # what the task found until it failed, for the books
            record.baseline_us, record.best_us = view.baseline_us, view.best_us
            record.evaluations = view.spent
        if isinstance(e, InfrastructureError):  # what the run spent on the model until then
            record = record.model_copy(update=e.account)
    finally:
        with contextlib.suppress(ValueError):  # read from its spec when the baseline failed
            record.level = metrics.level_of(operator, view.package and view.package.spec.level)
        record = record.model_copy(update=daemon_facts(view.client))
        record.ledger = ledger_usage(view.client, run)
        if hasattr(view.client, "served_by"):  # a pool: which daemons charged the run (moved: >1)
            record.served_by = view.client.served_by(run)
        env.close()
    record.budget_ok = budget_ok(record)
    record.wall_s = time.time() - started
    return record, best


def fault_error(record: SweepRecord) -> str:
    """Why a finished task is the infrastructure's failure, not a result ("" if it is one): a
    daemon fault (BUSY, DAEMON_ERROR) answered some of its evaluations. The policy went on without
    them (uncharged, it may draw others in their place), so what it found depends on when the
    daemon faulted; a resumed sweep runs the task again."""
    faults = sum(step.status in UNCHARGED for step in record.trajectory)
    return f"{faults} evaluation(s) answered by a daemon fault" if faults else ""


def _best_package(result: Any, view: EpisodeView) -> OperatorPackage | None:
    """The best candidate's sources: from the policy, else the env's best when it is the same."""
    package = getattr(result, "best_package", None)
    if package is None and (
        view.best_package.content_hash() == result.best_hash or view.best_us == result.best_us
    ):
        package = view.best_package
    return package


def _infra(error: Exception, view: EpisodeView) -> bool:
    """A daemon that cannot be reached, or answers faults, a model endpoint that failed, or Ray
    failing the policy's actor (killed, or not started because its worker could not start: the
    machine's doing) is not the policy's failure. Ray reports what the policy's own code raised
    as a RayTaskError (of the raised type too, so a DaemonError inside stays one)."""
    from ray.exceptions import RayError, RayTaskError

    ray_own = isinstance(error, RayError) and not isinstance(error, RayTaskError)
    if ray_own or isinstance(error, DaemonError | ConnectionError | InfrastructureError):
        return True
    return view.last is not None and view.last.daemon_fault


def budget_ok(record: SweepRecord) -> bool | None:
    """The ledger charged at most the budget, and what the policy counted; None without a ledger."""
    if record.ledger is None:
        return None
    charged = record.ledger.evaluations
    return charged <= record.budget and (not record.ok or charged == record.evaluations)


# ---- resume --------------------------------------------------------------------------------------


def load_config(out_dir: Path, requested: SweepConfig) -> SweepConfig:
    """The sweep's config, merged with what a rerun asks for (more ops, policies or seeds)."""
    path = out_dir / SWEEP
    if not path.exists():
        return requested
    saved = SweepConfig.model_validate_json(path.read_text())
    settings = ("budget", "soc", "timing", "timing_protocol")
    if any(getattr(saved, k) != getattr(requested, k) for k in settings):

        def flags(config: SweepConfig) -> str:
            return " ".join(f"--{k.replace('_', '-')} {getattr(config, k)}" for k in settings)

        raise ValueError(
            f"{out_dir} holds a sweep with {flags(saved)}, not {flags(requested)}; every task of "
            "a sweep is timed and budgeted alike: use those settings or another --out"
        )
    for name, cfg in requested.policy_config.items():
        if saved.policy_config.get(name, cfg) != cfg:
            raise ValueError(
                f"{out_dir}: policy {name} ran with config {saved.policy_config[name]}, not {cfg}; "
                "use another --out"
            )
    return saved.model_copy(
        update={
            "ops": list(dict.fromkeys(saved.ops + requested.ops)),
            "policies": list(dict.fromkeys(saved.policies + requested.policies)),
            "seeds": max(saved.seeds, requested.seeds),
            "policy_config": {**saved.policy_config, **requested.policy_config},
            "daemons": requested.daemons,
            "command": requested.command or saved.command,
        }
    )


@dataclass
class Resumed:
    """Where a sweep stands: its records, which tasks remain, and each task's earlier attempts."""

    config: SweepConfig
    records: list[SweepRecord]
    todo: list[Key]
    attempts: dict[Key, list[str]] = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return len(self.config.tasks()) - len(self.todo)


def resume(out_dir: Path, requested: SweepConfig) -> Resumed:
    """Read a results directory (creating it) and record the merged config."""
    out_dir.mkdir(parents=True, exist_ok=True)
    config = load_config(out_dir, requested)
    (out_dir / SWEEP).write_text(config.model_dump_json(indent=2))
    tasks = set(config.tasks())
    records = latest(r for r in read_records(out_dir / RESULTS) if r.key in tasks)
    finished = {r.key for r in records if r.ok}
    attempts: dict[Key, list[str]] = {}
    for a in map(Attempt.model_validate, read_jsonl(out_dir / ATTEMPTS)):
        attempts.setdefault(a.key, []).append(a.run_id)
    todo = [t for t in config.tasks() if t not in finished]
    return Resumed(config, records, todo, attempts)


# ---- progress ------------------------------------------------------------------------------------


class Progress:
    """Done / total tasks, evaluations spent by finished tasks out of the sweep's total budget, and
    evaluations the daemons charged so far in this session (running tasks and baselines included).
    One updating line on a terminal, one line per finished task otherwise."""

    def __init__(self, total: int, budget_total: int, done: int, spent: int):
        self.total, self.budget_total, self.done, self.spent = total, budget_total, done, spent
        self.tty = sys.stdout.isatty()

    def show(self, daemon_evaluations: int, message: str = "") -> None:
        width = 30
        filled = width * self.done // max(self.total, 1)
        line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} tasks, "
            f"{self.spent}/{self.budget_total} evaluations spent by finished tasks; the daemons "
            f"ran {daemon_evaluations} (running tasks, the uncharged baselines and rechecks included)"
        )
        if self.tty:  # whole words, so a cut message still reads
            print(f"\r{line}  {shorten(message, 60):<60}", end="", flush=True)
        elif message:
            print(f"{line}  {message}", flush=True)

    def finish(self, record: SweepRecord, daemon_evaluations: int) -> None:
        self.done += 1
        self.spent += record.evaluations
        self.show(daemon_evaluations, describe(record))

    def close(self) -> None:
        if self.tty:
            print(flush=True)


def shorten(text: str, width: int) -> str:
    """`text` on one line, cut at a word boundary to at most `width` characters."""
    return textwrap.shorten(text, width, placeholder=" ...")


def describe(record: SweepRecord) -> str:
    name = f"{record.policy} {record.operator.removeprefix('op://')} seed {record.seed}"
    if not record.ok:
        kind = "infrastructure failure" if record.infra_failed else "failed"
        return f"{name}: {kind}: {shorten(record.error or 'no result', 160)}"
    speedup = metrics.record_speedup(record)
    wrong = (
        f" (its faster best failed on fresh inputs: {record.recheck.status})"
        if record.wrong
        else ""
    )
    stopped = " (the model proposed nothing new: stopped early)" if record.stopped else ""
    return (
        f"{name}: {speedup:.3f}x ({record.timing_protocol} protocol) in {record.evaluations} "
        f"evaluations{wrong}{stopped}"
    )


def _daemon_evaluations(endpoints: list[str]) -> int:
    """Evaluations the daemons have charged in total (all runs, baselines included); best effort."""
    total = 0
    for address in endpoints:
        client = DaemonClient(address)
        try:
            total += client.stats(timeout_s=2.0).evaluations
        except DaemonError:
            pass
        finally:
            client.close()
    return total


# ---- scheduling ----------------------------------------------------------------------------------


def start_ray(ray_address: str | None) -> int:
    """Join or start Ray quietly (no dashboard, no banner); returns the cluster's CPUs.

    The caller's SIGTERM handler survives: Ray installs its own on init."""
    import ray

    if ray_address is not None:
        probe_ray(ray_address)
    handler = signal.getsignal(signal.SIGTERM)
    # Ray gives its local node 30 s to register, which a loaded machine can miss: try again.
    for attempt in range(1, RAY_START_ATTEMPTS + 1):
        try:
            # Joining starts no Ray process, which would inherit the descriptor set aside.
            with _ray_warnings_aside() if ray_address else contextlib.nullcontext():
                ray.init(
                    address=ray_address,
                    ignore_reinit_error=True,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    runtime_env={"env_vars": {"RAY_DEDUP_LOGS": "0"}},
                    **({} if ray_address else {"num_cpus": os.cpu_count()}),
                )
            break
        except Exception as e:  # Ray raises bare Exceptions when its node does not come up
            ray.shutdown()
            if ray_address is not None or attempt == RAY_START_ATTEMPTS:
                where = ray_address or f"a local Ray instance ({attempt} attempts)"
                text = " ".join(str(e).split())[:300]
                raise ConnectionError(f"{where} did not start: {text}") from e
    if handler is not None:
        signal.signal(signal.SIGTERM, handler)
    return int(ray.cluster_resources().get("CPU", 1))


@contextlib.contextmanager
def _ray_warnings_aside() -> Iterator[None]:
    """Ray's core writes a warning a second to file descriptor 2 while it looks for a head that
    does not answer (about 20 s): the user gets one line when it gives up, not those."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as aside:
        os.dup2(aside.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def probe_ray(address: str, timeout_s: float = RAY_PROBE_S) -> None:
    """A cluster address (`host:port`, `ray://host:port`) must accept a connection: Ray itself
    waits without end for a head that is not there. `auto` and `local` Ray resolves at once."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # not a host:port: Ray's own answer is immediate
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as e:
        raise ConnectionError(
            f"no Ray cluster at {address} ({e.strerror or e}); start one there "
            "(`ray start --head`) or leave out --ray-address to start a local one"
        ) from None


class Scheduler:
    """Keeps at most `parallel` tasks in flight, each given the whole daemon pool (its evaluations
    stay on one daemon while it lives, whose per-run cache and ledger then see them all), and
    writes an attempt line before each task starts."""

    def __init__(self, state: Resumed, endpoints: list[str], parallel: int, attempts_file: Any):
        import ray

        # Ray lends a task's CPU out while it blocks in ray.get/ray.wait (as the OpenEvolve policy
        # does, waiting on its actor), so CPU requests alone do not bound concurrency.
        self.task = ray.remote(num_cpus=1, max_retries=0)(run_one)
        self.state, self.endpoints, self.parallel = state, endpoints, parallel
        self.queue = list(state.todo)
        self.pending: dict[Any, tuple[Key, str, list[str]]] = {}
        self.attempts_file = attempts_file

    def submit(self) -> None:
        config = self.state.config
        while self.queue and len(self.pending) < self.parallel:
            p, op, s = self.queue.pop(0)
            previous = self.state.attempts.get((p, op, s), [])
            run = run_id(config.sweep_id, p, op, s, len(previous) + 1)
            ref = self.task.remote(
                p,
                op,
                s,
                config.budget,
                # The whole pool (ascend_gym.client.DaemonPool): the task starts on the
                # least-loaded daemon, stays there, and moves on if that daemon dies.
                ",".join(self.endpoints),
                config.soc,
                run,
                config.policy_config.get(p, {}),
                config.timing,
                config.timing_protocol,
            )
            self.pending[ref] = ((p, op, s), run, previous)
            attempt = Attempt(policy=p, operator=op, seed=s, run_id=run, time=time.time())
            self.attempts_file.write(attempt.model_dump_json() + "\n")
            self.attempts_file.flush()

    def next_done(self, timeout_s: float) -> tuple[SweepRecord, OperatorPackage | None] | None:
        """The next finished task's record and best candidate, or None if none finished in time."""
        import ray

        ready, _ = ray.wait(list(self.pending), num_returns=1, timeout=timeout_s)
        if not ready:
            return None
        (p, op, s), run, previous = self.pending.pop(ready[0])
        try:
            record, best = ray.get(ready[0])
        except ray.exceptions.RayError as e:  # the worker died: not the policy's failure
            config = self.state.config
            record = SweepRecord(
                policy=p, operator=op, seed=s, budget=config.budget, soc=config.soc, run_id=run,
                failure="infra", error=f"{type(e).__name__}: {e}"[:2000],
            )  # fmt: skip
            best = None
        record.sweep_id, record.abandoned_runs = self.state.config.sweep_id, previous
        return record, best


def run_bench(
    config: SweepConfig,
    out_dir: Path,
    local_daemons: int = 1,
    daemon_workers: int | None = None,
    ray_address: str | None = None,
    parallel: int | None = None,
) -> list[SweepRecord]:
    """Run (or resume) a sweep; returns every record of the sweep.

    Raises DaemonError before any task starts when a daemon does not answer."""
    state = resume(out_dir, config)
    config = state.config
    progress = Progress(
        len(config.tasks()),
        len(config.tasks()) * config.budget,
        state.finished,
        sum(r.evaluations for r in state.records if r.ok),
    )
    if not state.todo:
        return state.records
    if config.daemons:
        check_daemons(config.daemons)
    locals_: list[LocalDaemon] = []
    records = {r.key: r for r in state.records}
    try:
        for _ in range(0 if config.daemons else local_daemons):
            locals_.append(LocalDaemon(workers=daemon_workers, require_run_tokens=True))
        endpoints = config.daemons or [d.address for d in locals_]
        cpus = start_ray(ray_address)
        parallel = parallel or cpus
        with (out_dir / RESULTS).open("a") as results, (out_dir / ATTEMPTS).open("a") as attempts:
            scheduler = Scheduler(state, endpoints, parallel, attempts)
            at_start = _daemon_evaluations(endpoints)
            progress.show(
                0,
                f"{len(state.todo)} tasks to run on {len(endpoints)} daemon(s), {parallel} at a time",
            )
            scheduler.submit()
            while scheduler.pending:
                for d in locals_:
                    if why := d.exited():
                        raise DaemonError(
                            f"the sweep's local daemon {why}; the tasks it was serving run again "
                            "when the same command is run again"
                        )
                finished = scheduler.next_done(timeout_s=5.0)
                if finished is None:
                    if progress.tty:
                        progress.show(_daemon_evaluations(endpoints) - at_start)
                    continue
                record, best = finished
                if best is not None:
                    record.best_file = save_candidate(out_dir, best)
                results.write(record.model_dump_json() + "\n")
                results.flush()
                records[record.key] = record
                progress.finish(record, _daemon_evaluations(endpoints) - at_start)
                scheduler.submit()
    finally:
        progress.close()
        _stop_ray(ray_address)
        for d in locals_:
            d.close()
    return [records[t] for t in config.tasks() if t in records]


def _stop_ray(ray_address: str | None) -> None:
    """Stop the Ray instance this sweep started (its workers with it); a joined cluster stays."""
    import ray

    if ray_address is None and ray.is_initialized():
        ray.shutdown()


# ---- the table -----------------------------------------------------------------------------------


def table(records: list[SweepRecord], config: SweepConfig) -> str:
    """Overall GM speedup and fast_p per policy, over the sweep's full op set (simulated)."""
    rows = [
        r
        for r in metrics.table_rows(records, config.ops, config.policies, config.seeds)
        if r.level == metrics.OVERALL
    ]
    head = f"{'policy':<16} {'ops':>4} {'GM speedup':>11} " + " ".join(
        f"{'fast_' + str(p):>9}" for p in metrics.FAST_P
    )
    # The objective changes with the protocol (an element-wise op can be faster cold and slower
    # warm): every figure is read with the protocol its records were timed under.
    timed = sorted({r.timing_protocol for r in records if r.ok}) or [config.timing_protocol]
    head += f"  [{'/'.join(timed)} protocol]"
    lines = [head]
    for r in rows:
        notes = [
            f"{n} {what}"
            for n, what in (
                (r.missing, "missing"),
                (r.failed, "failed"),
                (r.infra, "failed for infrastructure"),
                (r.idle, "spent no evaluation"),
                (r.wrong, "wrong on fresh inputs"),
            )
            if n
        ]
        lines.append(
            f"{r.policy:<16} {r.ops:>4} {r.gm:>11.3f} "
            + " ".join(f"{r.fast[str(p)]:>9.2f}" for p in metrics.FAST_P)
            + (f"  ({', '.join(notes)}: counted as 1.0)" if notes else "")
        )
    return "\n".join(lines)


def expand_ops(names: str = "", suite_name: str = "", levels: list[int] | None = None) -> list[str]:
    """Ops from a comma list of addresses (`smoke`, `all`, `level1`...) and/or a whole suite's levels."""
    ops = suite.expand(names) if names else []
    if suite_name:
        ops += suite.op_uris(suite_name, levels=levels)
    # Canonical addresses: records are keyed by them, so `level1/add` and its op:// URI resume alike.
    return list(dict.fromkeys(suite.resolve(op).uri for op in ops))
