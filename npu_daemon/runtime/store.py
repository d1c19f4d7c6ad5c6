"""Result cache and budget ledger (DESIGN 3.3).

A byte-identical resubmission in the same run is served from the cache and costs nothing; the
ledger counts, per run_id, evaluations, cache hits and seconds by status, so every policy is
counted the same way.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict

from ascend_gym.protocol import EvalRequest, EvalResult


class ResultCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[str, dict[str, EvalResult]] = defaultdict(dict)

    @staticmethod
    def key(request: EvalRequest, fingerprint: dict[str, str]) -> str:
        """Everything that can change the result: sources, spec, cases, stages, soc, seed, simulator."""
        facts = {"package": request.package.content_hash(), "cases": request.cases, "stages": [s.value for s in request.stages],
                 "soc": request.soc, "seed": request.seed, "fingerprint": fingerprint}
        return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()

    def get(self, run_id: str, key: str) -> EvalResult | None:
        with self._lock:
            return self._runs[run_id].get(key)

    def put(self, run_id: str, key: str, result: EvalResult) -> None:
        with self._lock:
            self._runs[run_id][key] = result


class Ledger:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))

    def charge(self, run_id: str, result: EvalResult) -> None:
        with self._lock:
            row = self._runs[run_id]
            if result.cache_hit:
                row["cache_hits"] += 1
                return
            row["evaluations"] += 1
            row[f"status.{result.status.value}"] += 1
            row["compile_s"] += result.cost.compile_s
            row["run_s"] += result.cost.run_s

    def run(self, run_id: str) -> dict[str, float]:
        with self._lock:
            return dict(self._runs.get(run_id, {}))

    def total_evaluations(self) -> int:
        with self._lock:
            return int(sum(r.get("evaluations", 0) for r in self._runs.values()))

    def total_cache_hits(self) -> int:
        with self._lock:
            return int(sum(r.get("cache_hits", 0) for r in self._runs.values()))
