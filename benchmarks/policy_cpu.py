"""CPU a policy spends in its own process per bench task: proposals, rewrites, action masks,
requests; the daemon's compiles and simulations are another process's and not counted.

    python benchmarks/policy_cpu.py [--op level2/sscal] [--policies bon,ascendoptimizer] [--repeat 2]

Starts a local daemon (sim backend, 2 workers, fresh state) and runs each policy's task on the op
(seed 0, budget 40, warm protocol) `--repeat` times in this process, each under a run id of its own:
the first run of a policy may also pay one-time imports (Ray's; the embedding model's where its
query embeddings are not in the cache yet), and from the second on every evaluation is a daemon
cache hit, so `cpu_s` is the policy's own work. `daemon_cache_hits` counts the duplicate
candidates a search submitted (answered by the daemon's cache, uncharged). One JSON line per run.
Only interfaces older commits share are used: run it with each commit on PYTHONPATH to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from ascend_gym import bench
from ascend_gym.client import LocalDaemon


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--op", default="level2/sscal")
    ap.add_argument("--suite", default="ascend-real-v1")
    ap.add_argument("--policies", default="bon,ascendoptimizer,openevolve")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    operator = f"op://{args.suite}/{args.op}"
    daemon = LocalDaemon(workers=2)
    try:
        for policy in args.policies.split(","):
            for i in range(args.repeat):
                cpu, wall = time.process_time(), time.perf_counter()
                record, _ = bench.run_one(
                    policy, operator, 0, 40, daemon.address, "Ascend910B4",
                    f"policy-cpu/{policy}/{i}", {}, "auto", "warm",
                )  # fmt: skip
                print(
                    json.dumps(
                        {
                            "policy": policy,
                            "op": args.op,
                            "run": i,
                            "ok": record.ok,
                            "error": record.error,
                            "evaluations": record.evaluations,
                            "daemon_cache_hits": record.ledger.cache_hits if record.ledger else 0,
                            "best_us": record.best_us,
                            "cpu_s": round(time.process_time() - cpu, 2),
                            "wall_s": round(time.perf_counter() - wall, 2),
                            "load": round(os.getloadavg()[0], 2),
                        }
                    ),
                    flush=True,
                )
    finally:
        daemon.close()


if __name__ == "__main__":
    main()
