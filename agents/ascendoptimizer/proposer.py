"""The proposer interface of AscendOptimizer: every place the method asks a model for something.
`OfflineProposer` (agents.ascendoptimizer.offline) answers without a model, `LLMProposer`
(agents.ascendoptimizer.llm_proposer) through the chat client; results record which one ran."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.ascendoptimizer.bank import Experience
from agents.ascendoptimizer.motifs import Origin
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult


@dataclass
class Proposal:
    package: OperatorPackage
    note: str  # what was done, for the trajectory
    motif: str = ""  # Stage II rewind: the motif removed; refinement: the experience applied


@dataclass
class Individual:
    """A Stage I individual: a tiling program, measured with the kernel identified by kernel_hash."""

    tiling: str
    latency_us: float
    kernel_hash: str
    note: str = ""
    profile: dict[str, Any] = field(default_factory=dict)

    @property
    def fitness(self) -> float:
        return 1.0 / self.latency_us


@dataclass
class Distilled:
    title: str
    description: str
    bottleneck: str


class Proposer(Protocol):
    name: str
    # Model calls made since the last drain: prompt id, messages, reply, tokens (none offline).
    log: list[dict[str, Any]]

    def template(self, package: OperatorPackage) -> Proposal | None:
        """An evolvable tiling template (@tune markers) for Stage I; None if the program already is one."""

    def mutate(
        self,
        package: OperatorPackage,
        parent: Individual,
        elites: list[Individual],
        rng: random.Random,
        seen: set[str],
        feedback: str = "",
    ) -> Proposal | None:
        """Stage I: a new tiling program for `package` (whose kernel is fixed); `feedback` holds
        what the compiler or checker said about the stage's latest failed candidates."""

    def deoptimise(
        self,
        package: OperatorPackage,
        origin: Origin | None,
        tried: set[str],
        removed: set[str],
        rng: random.Random,
    ) -> Proposal | None:
        """Rewind: `package` with one optimisation motif removed (candidate hashes in `tried` are
        spent; motifs in `removed` were already taken out of this chain)."""

    def distill(
        self,
        fast: OperatorPackage,
        slow: OperatorPackage,
        fast_result: EvalResult,
        slow_result: EvalResult,
        motif: str,
        diff: str,
    ) -> Distilled:
        """Rewind: the <Title, Description, Bottleneck> of a kept pair."""

    def refine(
        self,
        package: OperatorPackage,
        result: EvalResult,
        diagnosis: str,
        retrieved: list[tuple[Experience, float]],
        seen: set[str],
        rng: random.Random,
        feedback: str = "",
    ) -> Proposal | None:
        """Stage II: a kernel rewrite of `package` guided by the retrieved experience (and by the
        profile in `result` and the `feedback` on the stage's latest failed rewrites)."""
