"""Sweeps: every (policy, op, seed) is a Ray task running the policy in an env against a daemon.

Results are appended as JSON lines to `<out>/results.jsonl` as tasks finish; a rerun of the same
command skips the (policy, op, seed) triples already there, so an interrupted sweep resumes.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

import ascend_gym
from ascend_gym import metrics, suite
from ascend_gym.client import LocalDaemon


def run_one(policy: str, operator: str, seed: int, budget: int, daemon: str, soc: str) -> dict[str, Any]:
    """One (policy, op, seed): a failure of the policy is recorded, never raised."""
    import gymnasium as gym

    from ascend_gym.policies import make_policy

    started = time.time()
    record: dict[str, Any] = {"policy": policy, "operator": operator, "seed": seed, "budget": budget, "soc": soc,
                              "backend": "sim", "simulated": True, "versions": _versions()}
    env = gym.make("ascend_gym:AscendOp-v0", operator=operator, budget=budget, soc=soc, daemon=daemon,
                   run_id=f"bench-{policy}-{operator}-{seed}-{int(started)}")
    try:
        result = make_policy(policy).run(env, seed)
        record.update(result.model_dump(mode="json"), ok=True)
    except Exception as e:  # noqa: BLE001 - one failed task must not end the sweep
        record.update(ok=False, error=f"{type(e).__name__}: {e}")
    finally:
        env.close()
    record["wall_s"] = time.time() - started
    return record


def _versions() -> dict[str, str]:
    return {"ascend_gym": ascend_gym.__version__, "python": platform.python_version()}


def key(record: dict[str, Any]) -> tuple[str, str, int]:
    return record["policy"], record["operator"], record["seed"]


def run_bench(ops: list[str], policies: list[str], budget: int, seeds: int, out_dir: Path, soc: str = "Ascend910B4",
              daemons: list[str] | None = None) -> list[dict[str, Any]]:
    import ray

    out_dir.mkdir(parents=True, exist_ok=True)
    results_path = out_dir / "results.jsonl"
    done = [json.loads(line) for line in results_path.read_text().splitlines()] if results_path.exists() else []
    finished = {key(r) for r in done if r.get("ok")}
    todo = [(p, op, s) for p in policies for op in ops for s in range(seeds) if (p, op, s) not in finished]

    local = None if daemons else LocalDaemon()
    endpoints = daemons or [local.address]
    try:
        if todo:
            ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False,
                     runtime_env={"env_vars": {"RAY_DEDUP_LOGS": "0"}})
            task = ray.remote(num_cpus=1)(run_one)
            pending = {task.remote(p, op, s, budget, endpoints[i % len(endpoints)], soc): (p, op, s)
                       for i, (p, op, s) in enumerate(todo)}
            with results_path.open("a") as f:
                while pending:
                    ready, _ = ray.wait(list(pending), num_returns=1)
                    record = ray.get(ready[0])
                    del pending[ready[0]]
                    f.write(json.dumps(record) + "\n")
                    f.flush()
                    done = [r for r in done if key(r) != key(record)] + [record]
                    print(f"[{len(todo) - len(pending)}/{len(todo)}] {record['policy']} {record['operator']} seed {record['seed']}: "
                          + (f"{record['baseline_us'] / record['best_us']:.3f}x in {record['evaluations']} evaluations"
                             if record.get("ok") else record.get("error", "failed")), flush=True)
    finally:
        if local is not None:
            local.close()
    return done


def table(records: list[dict[str, Any]]) -> str:
    """Geometric-mean speedup and fast_p per policy (simulated)."""
    lines = [f"{'policy':<16} {'ops':>4} {'GM speedup':>11} " + " ".join(f"{'fast_' + str(p):>9}" for p in metrics.FAST_P)]
    for policy in sorted({r["policy"] for r in records}):
        per_op: dict[str, list[float]] = {}
        for r in records:
            if r["policy"] == policy:
                s = metrics.speedup(r["baseline_us"], r["best_us"]) if r.get("ok") else 1.0
                per_op.setdefault(r["operator"], []).append(s)
        speedups = [metrics.geomean(v) for v in per_op.values()]  # seeds of an op: geometric mean
        m = metrics.summarize(speedups)
        lines.append(f"{policy:<16} {m['ops']:>4} {m['gm']:>11.3f} " + " ".join(f"{m[f'fast_{p}']:>9.2f}" for p in metrics.FAST_P))
    return "\n".join(lines)


def expand_ops(names: str) -> list[str]:
    return suite.expand(names)
