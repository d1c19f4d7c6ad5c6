"""The typed records of a sweep's results directory, shared by bench, metrics, report and validate.

- `sweep.json` holds a `SweepConfig`: the sweep's identity, op set, policies, budget and seeds.
- `results.jsonl` holds one `SweepRecord` per finished task (a task is one (policy, op, seed)).
- `candidates/<hash>.json` holds each task's best candidate as an `OperatorPackage` (the full
  tiling and kernel sources); a record names its file in `best_file`.

Records written by older versions load too: every field a record may lack has a default, and
policy-specific fields (e.g. AscendOptimizer's `stage_evaluations`) are kept as extras.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC, Ledger, TimingProtocol
from ascend_gym.policies import ModelAccount, StepRecord
from ascend_gym.validation import Recheck

RESULTS, SWEEP, ATTEMPTS, CANDIDATES = "results.jsonl", "sweep.json", "attempts.jsonl", "candidates"
Key = tuple[str, str, int]  # (policy, operator, seed)


class SweepConfig(BaseModel):
    sweep_id: str = Field(default_factory=lambda: uuid.uuid4().hex[:10])
    ops: list[str]
    policies: list[str]
    budget: int = Field(gt=0)
    seeds: int = Field(gt=0)
    soc: str = DEFAULT_SOC
    timing: Literal["auto", "full", "sampled"] = "auto"  # EvalRequest.timing of every evaluation
    # EvalRequest.timing_protocol, likewise ("cold" when absent: sweeps before there were others)
    timing_protocol: TimingProtocol = "cold"
    policy_config: dict[str, dict[str, Any]] = {}  # policy name -> constructor keywords
    daemons: list[str] = []  # given endpoints; empty = local daemons started by the sweep
    command: str = ""  # the command line of the latest run of the sweep

    def tasks(self) -> list[Key]:
        """(policy, op, seed), op-major: a sweep stopped early has every policy on the same ops."""
        return [(p, op, s) for op in self.ops for s in range(self.seeds) for p in self.policies]


class SweepRecord(ModelAccount):
    """One finished task: what the policy found, what the daemon charged, what ran it."""

    model_config = ConfigDict(extra="allow")

    policy: str
    operator: str
    seed: int
    budget: int
    soc: str = ""
    timing: Literal["auto", "full", "sampled"] = "auto"  # how its evaluations were timed
    timing_protocol: TimingProtocol = "cold"
    run_id: str = ""
    sweep_id: str = ""
    daemon: str = ""
    config: dict[str, Any] = {}
    versions: dict[str, str] = {}
    ok: bool = False
    # Why a task has no result: "policy" (the policy raised), "infra" (a daemon or a Ray worker
    # failed: not the policy's doing, and rerunning the sweep retries it) or "operator" (its
    # baseline fails its own check: no episode starts).
    failure: Literal["", "policy", "infra", "operator"] = ""
    error: str = ""
    level: int | None = None
    backend: str = ""
    simulated: bool | None = None
    daemon_versions: dict[str, Any] = {}
    ledger: Ledger | None = None
    # Charged evaluations per daemon of a pool: more than one key means the run moved.
    served_by: dict[str, int] | None = None
    budget_ok: bool | None = None
    wall_s: float = 0.0
    abandoned_runs: list[str] = []
    baseline_us: float | None = None
    best_us: float | None = None
    # The modelled launch head within each latency (the rest is the kernel body): known when the
    # backend reports it and the best is the env's own (None: unknown, or a record from before).
    baseline_head_us: float | None = None
    best_head_us: float | None = None
    best_hash: str = ""
    best_file: str = ""  # the best candidate, relative to the results directory
    evaluations: int = 0
    proposer: str = ""
    trajectory: list[StepRecord] = []
    expected_speedup: list[float] | None = None  # Best-of-N: averaged over sample orderings
    # A faster best checked on fresh inputs (None: no faster best, or a record from before the
    # recheck); a best that fails it is wrong and the task counts as its baseline.
    recheck: Recheck | None = None

    @property
    def key(self) -> Key:
        return self.policy, self.operator, self.seed

    @property
    def infra_failed(self) -> bool:
        return not self.ok and self.failure == "infra"

    @property
    def wrong(self) -> bool:
        """Its best candidate failed the check on fresh inputs."""
        return self.recheck is not None and not self.recheck.ok


class Attempt(BaseModel):
    """A task start: a task started but never recorded was interrupted."""

    policy: str
    operator: str
    seed: int
    run_id: str
    time: float

    @property
    def key(self) -> Key:
        return self.policy, self.operator, self.seed


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Objects of a JSON-lines file; a line cut short by a kill is ignored."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def read_records(path: Path) -> list[SweepRecord]:
    return [SweepRecord.model_validate(r) for r in read_jsonl(path)]


def latest(records: Iterable[SweepRecord]) -> list[SweepRecord]:
    """One record per task: the last one written (a failed task's rerun supersedes its failure)."""
    return list({r.key: r for r in records}.values())


def by_key(records: Iterable[SweepRecord]) -> dict[Key, SweepRecord]:
    return {r.key: r for r in records}


def save_candidate(results_dir: Path, package: OperatorPackage) -> str:
    """Store a best candidate once per content hash; returns its path relative to results_dir."""
    rel = f"{CANDIDATES}/{package.content_hash()}.json"
    path = results_dir / rel
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(package.model_dump_json())
        tmp.replace(path)  # whole or absent, even if the sweep is killed mid-write
    return rel


def load_candidate(results_dir: Path, record: SweepRecord) -> OperatorPackage | None:
    if not record.best_file:
        return None
    path = results_dir / record.best_file
    return OperatorPackage.model_validate_json(path.read_text()) if path.is_file() else None
