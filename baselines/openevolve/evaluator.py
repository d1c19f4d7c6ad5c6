"""OpenEvolve evaluator file: sends a program to the npu_daemon and scores it.

OpenEvolve loads this file by path in its own worker processes and calls `evaluate(program_path)`,
so everything it needs comes from environment variables set by the policy (never from closures):

  ASCEND_GYM_OE_DAEMON   daemon endpoint (tcp://host:port, or a comma-separated pool)
  ASCEND_GYM_OE_RUN_ID   budget ledger key of this (policy, op, seed) run
  ASCEND_GYM_OE_BUDGET   evaluations this run may spend
  ASCEND_GYM_OE_WORKDIR  holds baseline.json (the baseline package), initial_program.cpp and the
                         log evaluations.jsonl this file appends to, one line per daemon reply
  ASCEND_GYM_OE_SOC, ASCEND_GYM_OE_SEED, ASCEND_GYM_OE_TIMING, ASCEND_GYM_OE_TIMING_PROTOCOL
                         the env's EvalRequest settings, so candidates are timed as its baseline
  ASCEND_GYM_OE_TOKENS   the run's tokens by daemon address (JSON), when the run was opened
  ASCEND_GYM_OE_BASELINE_RUN_ID  the run the env evaluated the baseline under (the env names it)
  ASCEND_GYM_OE_BASELINE_TOKENS  the same as ASCEND_GYM_OE_TOKENS for the baseline's run

Budget: before every submission the run's spent evaluations are read from the daemon ledger (or,
from a daemon without ledger queries, counted from the daemon's replies in the log); once the
budget is spent, or the policy has stopped the run (`stop_and_drain`), nothing more is submitted.
Every submission holds a marker under `inflight/` until its reply is logged, so the policy ends
OpenEvolve's processes only between evaluations and no charged reply goes unlogged. The initial
program is the baseline, evaluated under the baseline's run_id, where the env already has it
cached: it costs nothing.

Score: combined_score = baseline latency / latency for a correct candidate, 0 otherwise. A
program that edits text outside its EVOLVE-BLOCKs is rejected without being submitted.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openevolve.evaluation_result import EvaluationResult

from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC, DEFAULT_TIMING_PROTOCOL, EvalRequest, EvalResult
from ascend_gym.client import DaemonClient, DaemonPool, connect
from ascend_gym.env import head_us
from baselines.openevolve import program as program_io

LOG = "evaluations.jsonl"
STOP = "stop"  # written by the policy: submit nothing more
INFLIGHT = "inflight"  # <pid>-<id> per submission in progress, removed once its reply is logged
MAX_ARTIFACT_CHARS = 3000
LOGGED_FIELDS = {"request_id", "status", "latency_us", "cache_hit", "message"}


class Settings:
    def __init__(self, env: Mapping[str, str] = os.environ) -> None:
        self.daemon = env["ASCEND_GYM_OE_DAEMON"]
        self.run_id = env["ASCEND_GYM_OE_RUN_ID"]
        self.baseline_run_id = env["ASCEND_GYM_OE_BASELINE_RUN_ID"]
        self.budget = int(env["ASCEND_GYM_OE_BUDGET"])
        self.workdir = Path(env["ASCEND_GYM_OE_WORKDIR"])
        self.soc = env.get("ASCEND_GYM_OE_SOC", DEFAULT_SOC)
        self.seed = int(env.get("ASCEND_GYM_OE_SEED", "0"))
        self.timing = env.get("ASCEND_GYM_OE_TIMING", "auto")
        self.timing_protocol = env.get("ASCEND_GYM_OE_TIMING_PROTOCOL", DEFAULT_TIMING_PROTOCOL)
        self.tokens: dict[str, str] = json.loads(env.get("ASCEND_GYM_OE_TOKENS", "{}"))
        self.baseline_tokens: dict[str, str] = json.loads(
            env.get("ASCEND_GYM_OE_BASELINE_TOKENS", "{}")
        )


def read_log(workdir: Path, name: str = LOG) -> list[dict[str, Any]]:
    path = workdir / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def spent(settings: Settings, client: DaemonClient | DaemonPool) -> int:
    """Evaluations charged to the run: the larger of the daemon ledger's count and the charged
    replies logged (a pool's ledger cannot read a daemon that died; the log still has its replies)."""
    from ascend_gym.bench import ledger_usage

    logged = sum(1 for e in read_log(settings.workdir) if e["charged"])
    row = ledger_usage(client, settings.run_id)
    return logged if row is None else max(logged, row.evaluations)


def stop_and_drain(workdir: Path, timeout_s: float) -> None:
    """Forbid further submissions, then wait (at most `timeout_s`) until none is in flight; a
    marker whose process is gone no longer counts. An evaluator marks before it reads the stop,
    and this writes the stop before it reads the marks, so a submission either sees the stop or
    is waited for."""
    import psutil

    (workdir / STOP).touch()
    deadline = time.monotonic() + timeout_s
    while True:
        marks = (workdir / INFLIGHT).glob("*")  # none yet: no directory, no marks
        live = any(psutil.pid_exists(int(m.name.split("-")[0])) for m in marks)
        if not live or time.monotonic() >= deadline:
            return
        time.sleep(0.05)


def append_log(path: Path, entry: dict[str, Any]) -> None:
    """One JSON line; the lock keeps lines whole when several processes log at once."""
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(json.dumps(entry) + "\n")


def _score(result: EvalResult, baseline_us: float) -> EvaluationResult:
    if result.ok:
        speedup = baseline_us / result.latency_us
        profile = result.profile.model_dump() if result.profile else {}
        ratios = {k: round(v, 3) for k, v in profile.items() if k.endswith("_ratio")}
        return EvaluationResult(
            metrics={
                "combined_score": speedup,
                "speedup": speedup,
                "correct": 1.0,
                "latency_us": result.latency_us,
            },
            artifacts={
                "status": "OK",
                "profile": json.dumps({"block_dim": profile.get("block_dim"), **ratios}),
            },
        )
    message = (result.message + "\n" + result.log_tail)[-MAX_ARTIFACT_CHARS:]
    return _no_score(result.status.value, message)


def _no_score(status: str, message: str, **metrics: float) -> EvaluationResult:
    """A score of nothing: a failed, rejected or refused program."""
    return EvaluationResult(
        metrics={"combined_score": 0.0, "speedup": 0.0, "correct": 0.0, **metrics},
        artifacts={"status": status, "message": message},
    )


def _log(settings: Settings, candidate: OperatorPackage, result: EvalResult, address: str) -> None:
    """Keep a correct candidate's package and append the daemon's reply to the log."""
    digest = candidate.content_hash()
    if result.ok:
        (settings.workdir / "candidates").mkdir(exist_ok=True)
        (settings.workdir / "candidates" / f"{digest}.json").write_text(candidate.model_dump_json())
    append_log(
        settings.workdir / LOG,
        {
            "time": time.time(),
            "hash": digest,
            # what the policy's step record needs of the answer (StepRecord.of_result)
            "result": result.model_copy(update={"message": result.message[:300]}).model_dump(
                mode="json", include=LOGGED_FIELDS
            ),
            "charged": result.charged,
            "head_us": head_us(result),  # the launch head in its latency: reports split by it
            "daemon": address or settings.daemon,
        },
    )


def evaluate(program_path: str) -> EvaluationResult:
    settings = Settings()
    baseline = OperatorPackage.model_validate_json((settings.workdir / "baseline.json").read_text())
    baseline_us = float((settings.workdir / "baseline_us").read_text())
    initial = (settings.workdir / "initial_program.cpp").read_text()
    text = Path(program_path).read_text()
    try:
        program_io.check_blocks(initial, text)
        candidate = program_io.split(text, baseline)
    except program_io.ProgramError as e:
        return _no_score("REJECTED", str(e))
    is_baseline = candidate.content_hash() == baseline.content_hash()
    (settings.workdir / INFLIGHT).mkdir(exist_ok=True)
    mark = settings.workdir / INFLIGHT / f"{os.getpid()}-{uuid.uuid4().hex}"
    mark.touch()
    client = connect(settings.daemon)
    try:
        if (settings.workdir / STOP).exists():
            return _no_score("STOPPED", "the policy stopped the run")
        client.use_tokens(settings.run_id, settings.tokens)
        client.use_tokens(settings.baseline_run_id, settings.baseline_tokens)
        answered = [e["daemon"] for e in read_log(settings.workdir) if e.get("daemon")]
        if answered and isinstance(client, DaemonPool):
            client.prefer(settings.run_id, answered[-1])  # the run stays where it was (its cache)
        if not is_baseline and spent(settings, client) >= settings.budget:
            return _no_score("BUDGET_EXHAUSTED", "evaluation budget spent", budget_exhausted=1.0)
        result = client.evaluate(
            EvalRequest(
                run_id=settings.baseline_run_id if is_baseline else settings.run_id,
                package=candidate,
                soc=settings.soc,
                seed=settings.seed,
                timing=settings.timing,
                timing_protocol=settings.timing_protocol,
            )
        )
        if not is_baseline:
            _log(settings, candidate, result, getattr(client, "last_address", ""))
    finally:
        client.close()
        mark.unlink()
    return _score(result, baseline_us)
