"""Sweeps: every (policy, op, seed) is a Ray task running the policy in an env against a daemon.

A sweep lives in one results directory:

- `sweep.json`: the sweep's identity and config (ops, policies, budget, seeds, soc, policy
  configs). A rerun must ask for the same budget and soc; it may add ops, policies or seeds.
- `results.jsonl`: one record per finished task, appended as tasks finish.
- `attempts.jsonl`: one line per task start, so a rerun can tell an interrupted task.

Resuming: a rerun skips every task that has a record. A task that was started but has no record
was interrupted, and a task whose policy raised failed; either runs again from the start under a
new run_id (`.../a2`), so its result is produced under exactly one budget, and the new record
(which supersedes a failed one) lists the run_ids of the abandoned attempts. Tasks that finished
are never re-run, so nothing they spent is charged again.

Equal budgets: each task opens its run on the daemon with the sweep's budget (a run token), so
the daemon refuses the policy's evaluation budget + 1. After a task, the daemon ledger for its run_id is read back and stored in the
record (`ledger`); `budget_ok` says the ledger charged no more than the budget and agrees with the
policy's own count.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
import uuid
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

import ascend_gym
from ascend_gym import metrics, suite
from ascend_gym.client import DaemonClient, DaemonError, LocalDaemon
from ascend_gym.protocol import DEFAULT_SOC


class SweepConfig(BaseModel):
    sweep_id: str = Field(default_factory=lambda: uuid.uuid4().hex[:10])
    ops: list[str]
    policies: list[str]
    budget: int = Field(gt=0)
    seeds: int = Field(gt=0)
    soc: str = DEFAULT_SOC
    policy_config: dict[str, dict[str, Any]] = {}  # policy name -> constructor keywords
    daemons: list[str] = []  # given endpoints; empty = local daemons started by the sweep
    command: str = ""  # the command line of the latest run of the sweep

    def tasks(self) -> list[tuple[str, str, int]]:
        """(policy, op, seed), op-major: a sweep stopped early has every policy on the same ops."""
        return [(p, op, s) for op in self.ops for s in range(self.seeds) for p in self.policies]


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


def ledger_usage(client: DaemonClient, run: str) -> dict[str, float] | None:
    """The daemon ledger's row for a run, or None from a daemon that cannot be asked."""
    ask = getattr(client, "ledger", None)
    if ask is None:
        return None
    try:
        reply = ask(run)
    except DaemonError:
        return None
    row = reply.model_dump() if hasattr(reply, "model_dump") else dict(reply)
    return {k: v for k, v in row.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def daemon_facts(client: DaemonClient) -> dict[str, Any]:
    """Backend, simulated flag and versions of the daemon that served a task."""
    try:
        stats = client.stats()
    except DaemonError:
        return {}
    return {
        "backend": stats.backend,
        "simulated": stats.backend == "sim",
        "daemon_versions": stats.versions,
    }


def run_one(
    policy: str,
    operator: str,
    seed: int,
    budget: int,
    daemon: str,
    soc: str,
    run: str,
    config: dict[str, Any],
) -> dict[str, Any]:
    """One (policy, op, seed): a failure of the policy is recorded, never raised."""
    import gymnasium as gym

    from ascend_gym.policies import make_policy

    started = time.time()
    record: dict[str, Any] = {
        "policy": policy,
        "operator": operator,
        "seed": seed,
        "budget": budget,
        "soc": soc,
        "run_id": run,
        "daemon": daemon,
        "config": config,
        "versions": versions(),
    }
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator=operator,
        budget=budget,
        soc=soc,
        daemon=daemon,
        run_id=run,
    )
    try:
        # The daemon holds the budget: it serves this run only with the token (which the env's
        # client now attaches) and refuses evaluation budget + 1, whatever the policy does.
        env.unwrapped.client.open_run(run, budget)
        result = make_policy(policy, **config).run(env, seed)
        record.update(result.model_dump(mode="json"), ok=True)
        record["operator"] = operator  # the sweep's key for the task, whatever the policy reports
    except Exception as e:  # noqa: BLE001 - one failed task must not end the sweep
        record.update(ok=False, error=f"{type(e).__name__}: {e}")
    finally:
        core = env.unwrapped
        if core.package is not None:
            record["level"] = core.package.spec.level
        record.update(daemon_facts(core.client))
        record["ledger"] = ledger_usage(core.client, run)
        env.close()
    record["budget_ok"] = budget_ok(record)
    record["wall_s"] = time.time() - started
    return record


def budget_ok(record: dict[str, Any]) -> bool | None:
    """The ledger charged at most the budget, and what the policy counted; None without a ledger."""
    ledger = record.get("ledger")
    if ledger is None:
        return None
    charged = int(ledger.get("evaluations", 0))
    return charged <= record["budget"] and (
        not record.get("ok") or charged == record.get("evaluations")
    )


def key(record: dict[str, Any]) -> tuple[str, str, int]:
    return record["policy"], record["operator"], record["seed"]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSON-lines file; a line cut short by a kill is ignored."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def latest(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per task: the last one written (a failed task's rerun supersedes its failure)."""
    return list({key(r): r for r in records}.values())


def load_config(out_dir: Path, requested: SweepConfig) -> SweepConfig:
    """The sweep's config, merged with what a rerun asks for (more ops, policies or seeds)."""
    path = out_dir / "sweep.json"
    if not path.exists():
        return requested
    saved = SweepConfig.model_validate_json(path.read_text())
    if (saved.budget, saved.soc) != (requested.budget, requested.soc):
        raise ValueError(
            f"{out_dir} holds a sweep with budget {saved.budget} on {saved.soc}; "
            f"budgets must be equal within a sweep (asked: {requested.budget} on {requested.soc})"
        )
    for name, cfg in requested.policy_config.items():
        if saved.policy_config.get(name, cfg) != cfg:
            raise ValueError(
                f"{out_dir}: policy {name} ran with config {saved.policy_config[name]}, not {cfg}"
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
            f"{self.spent}/{self.budget_total} evaluations spent, {daemon_evaluations} charged by daemons this session"
        )
        if self.tty:
            print(f"\r{line}  {message[:60]:<60}", end="", flush=True)
        elif message:
            print(f"{line}  {message}", flush=True)

    def close(self) -> None:
        if self.tty:
            print(flush=True)


def _spent(records: list[dict[str, Any]]) -> int:
    return sum(int(r.get("evaluations", 0)) for r in records)


def run_bench(
    config: SweepConfig,
    out_dir: Path,
    local_daemons: int = 1,
    daemon_workers: int | None = None,
    ray_address: str | None = None,
    parallel: int | None = None,
) -> list[dict[str, Any]]:
    """Run (or resume) a sweep; returns every record of the sweep."""
    import ray

    out_dir.mkdir(parents=True, exist_ok=True)
    config = load_config(out_dir, config)
    (out_dir / "sweep.json").write_text(config.model_dump_json(indent=2))
    results_path, attempts_path = out_dir / "results.jsonl", out_dir / "attempts.jsonl"
    done = latest(r for r in read_jsonl(results_path) if key(r) in set(config.tasks()))
    finished = {key(r) for r in done if r.get("ok")}
    attempts: dict[tuple[str, str, int], list[str]] = {}
    for a in read_jsonl(attempts_path):
        attempts.setdefault((a["policy"], a["operator"], a["seed"]), []).append(a["run_id"])
    todo = [t for t in config.tasks() if t not in finished]
    progress = Progress(
        len(config.tasks()), len(config.tasks()) * config.budget, len(finished), _spent(done)
    )
    if not todo:
        return done

    locals_ = (
        []
        if config.daemons
        else [LocalDaemon(workers=daemon_workers) for _ in range(local_daemons)]
    )
    endpoints = config.daemons or [d.address for d in locals_]
    try:
        ray.init(
            address=ray_address,
            ignore_reinit_error=True,
            include_dashboard=False,
            log_to_driver=False,
            runtime_env={"env_vars": {"RAY_DEDUP_LOGS": "0"}},
            **({} if ray_address else {"num_cpus": os.cpu_count()}),
        )
        task = ray.remote(num_cpus=1, max_retries=0)(run_one)
        # Ray lends a task's CPU out while it blocks in ray.get/ray.wait (as the OpenEvolve policy
        # does, waiting on its actor), so CPU requests alone do not bound concurrency: the driver
        # keeps at most `parallel` tasks in flight.
        parallel = parallel or int(ray.cluster_resources().get("CPU", 1))
        queue = list(enumerate(todo))
        pending: dict[Any, tuple[str, str, int, str, list[str]]] = {}
        attempts_file = attempts_path.open("a")

        def submit() -> None:
            while queue and len(pending) < parallel:
                i, (p, op, s) = queue.pop(0)
                previous = attempts.get((p, op, s), [])
                run = run_id(config.sweep_id, p, op, s, len(previous) + 1)
                # Requests are spread over the daemon pool one task per endpoint in turn: a task's
                # evaluations stay on one daemon, whose per-run cache and ledger then see them all.
                ref = task.remote(
                    p,
                    op,
                    s,
                    config.budget,
                    endpoints[i % len(endpoints)],
                    config.soc,
                    run,
                    config.policy_config.get(p, {}),
                )
                pending[ref] = (p, op, s, run, previous)
                attempts_file.write(
                    json.dumps(
                        {"policy": p, "operator": op, "seed": s, "run_id": run, "time": time.time()}
                    )
                    + "\n"
                )
                attempts_file.flush()

        at_start = _daemon_evaluations(endpoints)
        with results_path.open("a") as f, attempts_file:
            progress.show(
                0, f"{len(todo)} tasks to run on {len(endpoints)} daemon(s), {parallel} at a time"
            )
            submit()
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=5.0)
                if not ready:
                    if progress.tty:
                        progress.show(_daemon_evaluations(endpoints) - at_start)
                    continue
                p, op, s, run, previous = pending.pop(ready[0])
                try:
                    record = ray.get(ready[0])
                except (
                    ray.exceptions.RayError
                ) as e:  # the worker died: record it, the sweep goes on
                    record = {
                        "policy": p,
                        "operator": op,
                        "seed": s,
                        "budget": config.budget,
                        "soc": config.soc,
                        "run_id": run,
                        "ok": False,
                        "error": f"{type(e).__name__}: {e}"[:2000],
                    }
                record.update(sweep_id=config.sweep_id, abandoned_runs=previous)
                f.write(json.dumps(record) + "\n")
                f.flush()
                done = [r for r in done if key(r) != key(record)] + [record]
                progress.done += 1
                progress.spent += int(record.get("evaluations", 0))
                progress.show(_daemon_evaluations(endpoints) - at_start, _describe(record))
                submit()
    finally:
        progress.close()
        for d in locals_:
            d.close()
    return done


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


def _describe(record: dict[str, Any]) -> str:
    name = f"{record['policy']} {_short(record['operator'])} seed {record['seed']}"
    if not record.get("ok"):
        return f"{name}: {record.get('error', 'failed')[:120]}"
    return f"{name}: {record['baseline_us'] / record['best_us']:.3f}x in {record['evaluations']} evaluations"


def table(records: list[dict[str, Any]], config: SweepConfig) -> str:
    """Overall GM speedup and fast_p per policy, over the sweep's full op set (simulated)."""
    rows = [
        r
        for r in metrics.table_rows(records, config.ops, config.policies, config.seeds)
        if r.level == metrics.OVERALL
    ]
    head = f"{'policy':<16} {'ops':>4} {'GM speedup':>11} " + " ".join(
        f"{'fast_' + str(p):>9}" for p in metrics.FAST_P
    )
    lines = [head]
    for r in rows:
        lines.append(
            f"{r.policy:<16} {r.ops:>4} {r.gm:>11.3f} "
            + " ".join(f"{r.fast[str(p)]:>9.2f}" for p in metrics.FAST_P)
            + (f"  ({r.missing} tasks missing, counted as 1.0)" if r.missing else "")
        )
    return "\n".join(lines)


def expand_ops(names: str = "", suite_name: str = "", levels: list[int] | None = None) -> list[str]:
    """Ops from a comma list of addresses (`smoke`, `all`, `level1`...) and/or a whole suite's levels."""
    ops = suite.expand(names) if names else []
    if suite_name:
        ops += suite.op_uris(suite_name, levels=levels)
    # Canonical addresses: records are keyed by them, so `level1/add` and its op:// URI resume alike.
    return list(dict.fromkeys(suite.resolve(op).uri for op in ops))
