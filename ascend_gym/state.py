"""The serialisable state of an AscendOp-v0 episode: enough to rebuild it offline, fork it, pickle
it, replay it against a daemon, or validate its best candidate later.

An `EnvState` is plain JSON: the operator, the env's configuration, source hashes (baseline,
current, best, and each candidate), the action log with per-step results and rewards, and the
versions it was made with. The operator's sources are not stored; they are rebuilt from the
operator address plus the actions (rewrites are deterministic; code-mode steps keep the sources
they submitted), and every rebuilt hash is checked against the log.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, computed_field

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_BACKEND, EvalResult, Status, TimingProtocol
from ascend_gym import rewrites

if TYPE_CHECKING:
    import gymnasium as gym

STATE_FORMAT = 1


class StepEntry(BaseModel):
    """One step of the action log."""

    action: int | None = None  # discrete action id
    rewrite: str | None = None  # its catalogue name ("done" for the done action)
    tiling: str = ""  # code mode: the submitted sources ("" = part kept)
    kernel: str = ""
    tiling_header: str = ""  # a generated package brings its own tiling data layout
    sources: dict[str, str] = {}  # the kernel's other sources (op_kernel headers), by path
    done: bool = False
    noop: bool = False  # the rewrite did not apply: nothing was evaluated
    candidate_hash: str | None = None
    status: Status | None = None
    latency_us: float | None = None
    charged: bool = False  # cost one evaluation of the episode budget
    reward: float = 0.0

    def action_for(self, mode: str) -> int | dict[str, Any]:
        """The env action that reproduces this step."""
        if mode == "discrete":
            return rewrites.DONE if self.done else rewrites.index(self.rewrite)
        action = {"tiling": self.tiling, "kernel": self.kernel, "done": int(self.done)}
        if self.tiling_header:
            action["tiling_header"] = self.tiling_header
        if self.sources:
            action["sources"] = self.sources
        return action

    def candidate(self, current: OperatorPackage) -> OperatorPackage:
        """The package this code step submits on top of `current`. Its `sources` may replace
        kernel-side sources the package has (op_kernel/ and inc/ files), nothing else: the spec,
        the reference and the host files stay the operator's own."""
        package = current.with_sources(
            tiling=self.tiling, kernel=self.kernel, tiling_header=self.tiling_header
        )
        allowed = set(rewrites.kernel_side(current)) - {current.kernel_path}
        unknown = sorted(set(self.sources) - allowed)
        if unknown:
            raise ValueError(
                f"code action 'sources' may replace the kernel's other sources "
                f"({', '.join(sorted(allowed)) or 'it has none'}), not {', '.join(unknown)}"
            )
        return package.model_copy(update={"files": {**package.files, **self.sources}})


class EnvState(BaseModel):
    format: int = STATE_FORMAT
    env_id: str = "AscendOp-v0"
    versions: dict[str, str] = {}
    operator: str
    mode: Literal["code", "discrete"]
    soc: str
    budget: int
    reward: str
    failure_penalty: float
    noop_penalty: float
    eval_seed: int
    timing: Literal["auto", "full", "sampled"] = "auto"  # EvalRequest.timing
    timing_protocol: TimingProtocol = "cold"  # EvalRequest.timing_protocol
    run_id: str
    backend: str = DEFAULT_BACKEND
    simulated: bool = True
    baseline_hash: str
    baseline_us: float
    current_hash: str
    best_hash: str
    best_us: float
    prev_us: float
    spent: int
    terminated: bool = False
    steps: list[StepEntry] = []
    current_result: EvalResult | None = None  # the evaluation of the current operator (features)
    last_result: EvalResult | None = None  # the last evaluation of the episode

    @computed_field
    @property
    def rewards(self) -> list[float]:
        return [s.reward for s in self.steps]

    def rebuild(self) -> tuple[OperatorPackage, OperatorPackage, OperatorPackage]:
        """(baseline, current, best) packages, rebuilt from the operator and the action log without
        evaluating anything; raises ValueError when a rebuilt hash differs from the log."""
        baseline = suite.resolve(self.operator)
        if baseline.content_hash() != self.baseline_hash:
            raise ValueError(
                f"{self.operator} changed since this state was recorded (baseline hash differs)"
            )
        current = best = baseline
        for i, step in enumerate(self.steps):
            if step.done or step.noop or step.candidate_hash is None:
                continue
            if step.rewrite is not None:
                candidate = rewrites.by_name(step.rewrite).apply(current, self.soc)
            else:
                candidate = step.candidate(current)
            if candidate is None or candidate.content_hash() != step.candidate_hash:
                raise ValueError(
                    f"step {i} ({step.rewrite or 'code'}) does not rebuild the logged candidate"
                )
            if step.status is Status.OK:
                current = candidate
                if candidate.content_hash() == self.best_hash:
                    best = candidate
        if current.content_hash() != self.current_hash or best.content_hash() != self.best_hash:
            raise ValueError("the action log does not rebuild the recorded current/best operator")
        return baseline, current, best


def catalogue_digest() -> str:
    """Changes whenever a catalogue entry is added, removed or renamed (action ids would move)."""
    return hashlib.sha256("\n".join(r.name for r in rewrites.CATALOGUE).encode()).hexdigest()[:16]


class ReplayMismatch(BaseModel):
    step: int
    field: str
    recorded: Any
    replayed: Any


class ReplayReport(BaseModel):
    steps: int
    mismatches: list[ReplayMismatch]
    recorded_best_us: float
    replayed_best_us: float

    @property
    def ok(self) -> bool:
        return not self.mismatches


def replay(env: gym.Env, state: EnvState) -> ReplayReport:
    """Re-run the logged actions on `env` (built with the state's mode, e.g. by
    `AscendOpEnv.from_state(state, fresh_run=True)`) and compare hashes, statuses and rewards.
    Every candidate is submitted to the daemon again; with a fresh run_id none is a cache hit."""
    base_env = env.unwrapped
    if base_env.mode != state.mode:
        raise ValueError(f"state is {state.mode} mode, env is {base_env.mode} mode")
    env.reset(options={"operator": state.operator})
    mismatches = []
    for i, step in enumerate(state.steps):
        _, reward, _, _, info = env.step(step.action_for(state.mode))
        replayed = {
            "candidate_hash": info["candidate_hash"],
            "status": info["result"].status if info["candidate_hash"] else None,
            "reward": reward,
        }
        recorded = {
            "candidate_hash": step.candidate_hash,
            "status": step.status,
            "reward": step.reward,
        }
        for field, value in recorded.items():
            same = (
                abs(value - replayed[field]) <= 1e-9
                if field == "reward"
                else value == replayed[field]
            )
            if not same:
                mismatches.append(
                    ReplayMismatch(step=i, field=field, recorded=value, replayed=replayed[field])
                )
    return ReplayReport(
        steps=len(state.steps),
        mismatches=mismatches,
        recorded_best_us=state.best_us,
        replayed_best_us=base_env.best_us,
    )
