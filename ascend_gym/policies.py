"""Policy interface and registry (docs/design.md 3.5).

A policy gets an env and returns its best candidate and trajectory. It reads the episode through
`episode(env)`, which works through any wrappers, never through `env.unwrapped`. `ascend_gym` never
imports a policy module directly: the registry maps names to "module:Class", imported on first use,
and a researcher's own policy is named by its "module:Class" itself (importable where the bench's
Ray workers run: installed, or on PYTHONPATH).
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any, Protocol, Self

from pydantic import BaseModel, ConfigDict, Field

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult, Status

if TYPE_CHECKING:
    import gymnasium as gym

    from ascend_gym.env import EpisodeView

REGISTRY: dict[str, str] = {
    "random": "baselines.random_search:RandomSearch",
    "bon": "baselines.best_of_n:BestOfN",
    "openevolve": "baselines.openevolve.policy:OpenEvolvePolicy",
    "ascendoptimizer": "agents.ascendoptimizer.policy:AscendOptimizer",
    "generate": "agents.generate.policy:Generate",
    "ppo": "baselines.ppo_rllib:PPOPolicy",
}


_IMPORT_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def target(name: str) -> str:
    """The "module:Class" of a policy: a registered name's, or `name` itself when it is one."""
    if name in REGISTRY:
        return REGISTRY[name]
    if _IMPORT_PATH.fullmatch(name):
        return name
    raise KeyError(
        f"unknown policy {name}; registered: {', '.join(sorted(REGISTRY))}; "
        "or name your own as module:Class"
    )


def episode(env: gym.Env) -> EpisodeView:
    """The live, read-only view of the env's episode a policy reads (package, SoC, budget, spent,
    latencies, run and client), found through any Gymnasium wrappers around the env."""
    return env.get_wrapper_attr("episode")


class PolicyConfig(BaseModel):
    """Base of every policy's config and its parts: a misspelt key is an error, never a default
    run of the wrong experiment."""

    model_config = ConfigDict(extra="forbid")


class InfrastructureError(RuntimeError):
    """What a policy stands on (its model endpoint) failed: the task is an infrastructure failure,
    retried by a rerun, never a result (a bench scores it nowhere; `optimize` exits 2). `account`
    holds what the run spent on the model until then (`ModelAccount` fields), for the books."""

    def __init__(self, message: str, account: dict[str, Any] | None = None):
        super().__init__(message)
        self.account = account or {}


class StepRecord(BaseModel):
    evaluation: int  # evaluations spent after this step
    status: Status
    latency_us: float | None
    best_us: float
    cache_hit: bool = False
    note: str = ""
    phase: str = ""  # which stage of a multi-stage policy took the step (e.g. "stage1", "stage2")

    @classmethod
    def of(cls, info: dict[str, Any], note: str = "", phase: str = "") -> StepRecord:
        """The record of the env step that returned `info`: every policy records its steps this
        one way, from what the step says, never by reaching into the env."""
        return cls.of_result(info["result"], info["evaluations"], info["best_us"], note, phase)

    @classmethod
    def of_result(
        cls, result: EvalResult, evaluation: int, best_us: float, note: str = "", phase: str = ""
    ) -> StepRecord:
        """The record of one daemon answer, for a policy whose evaluations bypass the env (OpenEvolve's
        workers): `evaluation` and `best_us` are the policy's own count and best so far."""
        return cls(
            evaluation=evaluation,
            status=result.status,
            latency_us=result.latency_us,
            best_us=best_us,
            cache_hit=result.cache_hit,
            note=note,
            phase=phase,
        )


class ModelAccount(BaseModel):
    """A run's model account, kept by the policy's model gateway the same way for every policy
    (empty offline, except OpenEvolve's calls to its offline endpoint): the model's name, calls,
    tokens as the endpoint reports them (0 when it reports none) and characters as the gateway
    counts them."""

    model: str = ""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    prompt_chars: int = 0
    completion_chars: int = 0
    # Why the model was asked no more before the budget was spent: it proposed nothing new
    # within the call cap. The run is a result, as a search that ran dry ("" otherwise).
    stopped: str = ""


class PolicyResult(ModelAccount):
    policy: str
    operator: str
    seed: int
    budget: int
    baseline_us: float
    best_us: float
    best_hash: str
    evaluations: int
    # The launch head in best_us, for a policy that keeps its own best (the env knows its own).
    best_head_us: float | None = None
    proposer: str = "offline"
    trajectory: list[StepRecord] = []
    # The best candidate's sources, for a policy whose best is not the env's own best_package
    # (one that evaluates outside the env). Kept beside a result, never inside it.
    best_package: OperatorPackage | None = Field(None, exclude=True)

    @classmethod
    def of_episode(cls, policy: str, view: EpisodeView, seed: int, **fields: Any) -> Self:
        """The result of the episode `view` shows at its end (the env's best, the evaluations
        charged); `fields` add to it or stand instead (a policy that keeps its own best)."""
        return cls(
            **{
                "policy": policy,
                "operator": view.package.uri,
                "seed": seed,
                "budget": view.budget,
                "baseline_us": view.baseline_us,
                "best_us": view.best_us,
                "best_hash": view.best_package.content_hash(),
                "evaluations": view.spent,
                **fields,
            }
        )


class Policy(Protocol):
    name: str

    def run(self, env: Any, seed: int) -> PolicyResult: ...


def make_policy(name: str, **config: Any) -> Policy:
    module_name, cls = target(name).split(":")
    return getattr(importlib.import_module(module_name), cls)(**config)
