"""OpenEvolve baseline: the real `openevolve` package (0.4.0, extra `openevolve`) evolving an operator.

One run = one OpenEvolve instance in its own Ray actor. The program is the operator's tiling and
kernel sources in two EVOLVE-BLOCKs (`program`); OpenEvolve's worker processes score
it with `evaluator.py`, which reads the daemon endpoint, run_id and budget from
environment variables. The budget is the daemon ledger's, not OpenEvolve's iteration count: the
evaluator submits nothing once the run's ledger shows the budget spent, and this policy then stops
the run, waits for the evaluation in flight to be logged, and kills the actor (and its worker
processes).

OpenEvolve's model calls go through the run's model gateway (`agents.llm.gateway`), as every
policy's do: it records and replays them, counts calls and tokens, and caps the calls between two
charged evaluations (the run stops when the cap is hit). Behind the gateway is, offline (the
default), `server.OfflineLLMServer`, which answers with the offline knowledge every policy shares,
so OpenEvolve runs unchanged with no model; with `proposer="llm"`, the configured endpoint.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import Field

from agents.knowledge import Knowledge, KnowledgeConfig
from agents.llm import LLMConfig, ModelGateway
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult
from ascend_gym.bench import start_ray
from ascend_gym.client import DaemonPool, connect
from ascend_gym.env import EpisodeView
from ascend_gym.policies import PolicyConfig, PolicyResult, StepRecord, episode
from baselines.openevolve import program as program_io
from baselines.openevolve.server import MODEL as OFFLINE_MODEL
from baselines.openevolve.server import OfflineLLMServer

HERE = Path(__file__).resolve().parent
DEFAULT_CONFIG = HERE / "config.yaml"
EVALUATOR = HERE / "evaluator.py"
# How long a stopped run waits for the evaluation in flight to be logged: config.yaml's evaluator
# timeout, past which OpenEvolve itself would give the evaluation up.
DRAIN_S = 900.0


class OpenEvolveConfig(PolicyConfig):
    config_file: str = str(DEFAULT_CONFIG)
    proposer: str = Field("offline", pattern="^(offline|llm)$")
    offline_max_moves: int = Field(2, ge=1)  # moves the offline server composes into one answer
    # The model settings every policy shares; they override the YAML's llm section.
    llm: LLMConfig = LLMConfig()
    max_iterations: int = Field(1000, ge=1)  # safety cap; the ledger budget ends the run first
    poll_s: float = Field(0.5, gt=0)
    timeout_s: float = Field(6 * 3600.0, gt=0)  # wall-clock cap for one run
    keep_workdir: bool = False
    knowledge: KnowledgeConfig = KnowledgeConfig()  # what the offline endpoint knows


class OpenEvolveResult(PolicyResult):
    # "budget", "model_calls" (the cap), "exhausted" (offline: the shared knowledge had nothing new),
    # "iterations" or "timeout"
    stopped_by: str = ""


class OpenEvolveInstance:
    """Runs one OpenEvolve controller; lives in a Ray actor that the policy kills at budget."""

    def pid(self) -> int:
        return os.getpid()

    def run(
        self,
        workdir: str,
        settings: dict[str, str],
        config: dict[str, Any],
        seed: int,
        llm: dict[str, Any],
    ) -> dict[str, Any]:
        import asyncio
        import multiprocessing

        from openevolve import OpenEvolve
        from openevolve.config import Config

        cfg = OpenEvolveConfig(**config)
        os.environ.update(settings)  # OpenEvolve hands its environment to its worker processes
        # Fork from a process with Ray's threads can deadlock; spawned workers start clean.
        multiprocessing.set_start_method("spawn", force=True)
        oe = Config.from_yaml(cfg.config_file)
        oe.random_seed = oe.database.random_seed = seed
        oe.llm.api_base = llm["api_base"]
        oe.llm.update_model_params(llm, overwrite=True)
        controller = OpenEvolve(
            str(Path(workdir) / "initial_program.cpp"),
            str(EVALUATOR),
            oe,
            output_dir=str(Path(workdir) / "openevolve_output"),
        )
        best = asyncio.run(controller.run(iterations=cfg.max_iterations))
        return {"best_metrics": dict(best.metrics) if best else {}}


def _kill_tree(pid: int) -> None:
    """SIGKILL the processes an actor started (its OpenEvolve workers), found before the actor dies."""
    import psutil

    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return
    for child in children:
        try:
            child.send_signal(signal.SIGKILL)
        except psutil.NoSuchProcess:
            pass


def evaluator_settings(view: EpisodeView, workdir: Path) -> dict[str, str]:
    """The evaluator's environment variables for the env's current episode (evaluator.py)."""
    return {
        "ASCEND_GYM_OE_DAEMON": view.client.address,
        "ASCEND_GYM_OE_RUN_ID": view.run_id,
        "ASCEND_GYM_OE_BASELINE_RUN_ID": view.baseline_run_id,
        "ASCEND_GYM_OE_BUDGET": str(view.budget),
        "ASCEND_GYM_OE_WORKDIR": str(workdir),
        "ASCEND_GYM_OE_SOC": view.soc,
        # The evaluation seed (the daemon's test inputs) and the timing must be the env's, so the
        # initial program is the cached baseline and every candidate is timed as the baseline was.
        "ASCEND_GYM_OE_SEED": str(view.eval_seed),
        "ASCEND_GYM_OE_TIMING": view.timing,
        "ASCEND_GYM_OE_TIMING_PROTOCOL": view.timing_protocol,
        # The runs' tokens, if they were opened (the daemon then serves them only with them).
        "ASCEND_GYM_OE_TOKENS": json.dumps(view.client.run_tokens(view.run_id)),
        "ASCEND_GYM_OE_BASELINE_TOKENS": json.dumps(view.client.run_tokens(view.baseline_run_id)),
    }


class OpenEvolvePolicy:
    name = "openevolve"

    def __init__(self, **config: Any):
        self.config = OpenEvolveConfig(**config)

    def run(self, env: Any, seed: int) -> OpenEvolveResult:
        from baselines.openevolve import evaluator  # needs the openevolve package

        env.reset(seed=seed)
        view = episode(env)
        baseline = view.package
        workdir = Path(tempfile.mkdtemp(prefix="openevolve-"))
        (workdir / "baseline.json").write_text(baseline.model_dump_json())
        (workdir / "baseline_us").write_text(repr(view.baseline_us))
        (workdir / "initial_program.cpp").write_text(program_io.compose(baseline))
        settings = evaluator_settings(view, workdir)
        cfg = self.config
        server = (
            OfflineLLMServer(
                baseline,
                seed,
                cfg.offline_max_moves,
                Knowledge(cfg.knowledge, baseline.uri, view.soc),
            )
            if cfg.proposer == "offline"
            else None
        )
        # Offline, the model is the offline endpoint: the account names it, not the config's model.
        model = cfg.llm if server is None else cfg.llm.model_copy(update={"model": OFFLINE_MODEL})
        gateway = ModelGateway(
            model,
            upstream=server.base_url if server else cfg.llm.base_url,
            charged=lambda: sum(e["charged"] for e in evaluator.read_log(workdir)),
        )
        llm = {
            "api_base": gateway.base_url,
            "api_key": "gateway",
            "name": model.model,
            "temperature": cfg.llm.temperature,
            "max_tokens": cfg.llm.max_tokens,
            # The gateway retries upstream; OpenEvolve's own retries would stack on them.
            "timeout": int(cfg.llm.call_timeout_s),
            "retries": 0,
        }
        try:
            stopped_by = self._evolve(view, workdir, settings, seed, llm, gateway)
        finally:
            gateway.close()
            if server is not None:
                server.close()
        # Offline, a call cap reached while the endpoint had nothing new to propose is the shared
        # knowledge spent on this operator (as AscendOptimizer's and Best-of-N's searches end
        # early), not a failing model: a result with the evaluations it spent.
        if server is not None and server.proposer.dry >= model.max_calls_per_evaluation:
            stopped_by = "exhausted"
        try:
            result = self._result(view, seed, workdir, stopped_by, gateway.account())
            if stopped_by != "exhausted":
                gateway.check(result.evaluations, view.budget)
        finally:
            if not self.config.keep_workdir:
                shutil.rmtree(workdir, ignore_errors=True)
        return result

    def _evolve(
        self,
        view: EpisodeView,
        workdir: Path,
        settings: dict[str, str],
        seed: int,
        llm: dict[str, Any],
        gateway: ModelGateway,
    ) -> str:
        """Run OpenEvolve in its actor until the budget is spent (or the call cap, the iteration
        cap or the wall-clock cap ends it); returns what stopped it."""
        import ray

        from baselines.openevolve import evaluator

        if not ray.is_initialized():  # `optimize`: start it as a bench does, quietly
            start_ray(None)
        # num_cpus=0: the actor mostly waits on the daemon, and the task that owns it holds the CPU.
        actor = ray.remote(num_cpus=0, max_restarts=0)(OpenEvolveInstance).remote()
        stopped_by = "timeout"
        try:
            pid = ray.get(actor.pid.remote())
        except BaseException:  # the actor did not start: nothing of it to stop but itself
            ray.kill(actor, no_restart=True)
            raise
        try:
            config = self.config.model_dump()
            finished = actor.run.remote(str(workdir), settings, config, seed, llm)
            deadline = time.monotonic() + self.config.timeout_s
            probe = connect(view.client.address)
            eval_settings = evaluator.Settings(settings)
            try:
                while time.monotonic() < deadline:
                    done, _ = ray.wait([finished], timeout=self.config.poll_s)
                    if evaluator.spent(eval_settings, probe) >= view.budget:
                        stopped_by = "budget"
                        break
                    if gateway.exhausted:
                        stopped_by = "model_calls"
                        break
                    if done:
                        ray.get(finished)  # surfaces an OpenEvolve failure as this task's error
                        stopped_by = "iterations"
                        break
            finally:
                probe.close()
        finally:
            # The daemon charges a reply before the worker logs it: kill only between evaluations.
            evaluator.stop_and_drain(workdir, DRAIN_S)
            _kill_tree(pid)
            ray.kill(actor, no_restart=True)
        return stopped_by

    def _result(
        self, view: EpisodeView, seed: int, workdir: Path, stopped_by: str, account: dict[str, Any]
    ) -> OpenEvolveResult:
        from baselines.openevolve import evaluator

        trajectory, spent, best_us, best_hash = [], 0, view.baseline_us, view.package.content_hash()
        best_head_us = view.baseline_head_us
        for entry in evaluator.read_log(workdir):
            spent += int(entry["charged"])
            if entry["charged"] and isinstance(view.client, DaemonPool):
                view.client.note_charge(view.run_id, entry["daemon"])  # the workers' receipts
            result = EvalResult.model_validate(entry["result"])
            if result.ok and result.latency_us < best_us:
                best_us, best_hash = result.latency_us, entry["hash"]
                best_head_us = entry["head_us"]
            trajectory.append(StepRecord.of_result(result, spent, best_us, result.message[:120]))
        kept = workdir / "candidates" / f"{best_hash}.json"  # the evaluator keeps correct ones
        best = OperatorPackage.model_validate_json(kept.read_text()) if kept.is_file() else None
        if best_hash == view.package.content_hash():
            best = view.package
        return OpenEvolveResult.of_episode(
            self.name,
            view,
            seed,
            best_us=best_us,
            best_hash=best_hash,
            best_head_us=best_head_us,
            best_package=best,
            evaluations=spent,
            proposer=self.config.proposer,
            trajectory=trajectory,
            **account,
            stopped_by=stopped_by,
        )
