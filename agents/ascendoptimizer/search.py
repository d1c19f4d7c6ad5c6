"""The two stages as step functions over the shared evaluator. Each `step` makes one proposal
and, when the proposal is new, one evaluation; it returns False when nothing was evaluated."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator

from agents.ascendoptimizer.bank import ExperienceBank
from agents.ascendoptimizer.config import KernelRewritingConfig, TilingEvolutionConfig
from agents.ascendoptimizer.diagnose import diagnose, profile_summary
from agents.ascendoptimizer.evaluator import Evaluator
from agents.ascendoptimizer.proposer import Individual, Proposal, Proposer
from agents.knowledge import KnowledgeConfig
from ascend_core import tune
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult


class TilingEvolution:
    """Evolution of the tiling program with the kernel fixed: fitness 1 / latency, and a
    candidate that fails to compile or check never enters the population (zero tolerance)."""

    phase = "stage1"

    def __init__(
        self,
        config: TilingEvolutionConfig,
        proposer: Proposer,
        evaluator: Evaluator,
        rng: random.Random,
    ):
        self.config, self.proposer, self.evaluator, self.rng = config, proposer, evaluator, rng
        self.population: list[Individual] = []

    def add(self, package: OperatorPackage, result: EvalResult, note: str) -> None:
        self.population.append(
            Individual(
                package.tiling_source,
                result.latency_us,
                _kernel_hash(package),
                note,
                {"summary": profile_summary(result.profile)},
            )
        )
        self.population.sort(key=lambda i: i.latency_us)
        del self.population[self.config.population_size :]

    def synthesise_template(self, base: OperatorPackage, round_: int) -> None:
        """The evolvable template, when the tiling program has no @tune markers yet."""
        if not self.config.synthesise_template or tune.find_tunables(base.tiling_source):
            return
        proposal = self.proposer.template(base)
        self.evaluator.trajectory.drain(self.proposer, phase=self.phase, round=round_)
        if proposal is None or proposal.package.content_hash() in self.evaluator.seen:
            return
        result = self.evaluator.evaluate(proposal.package, base, self.phase, round_, proposal.note)
        if result is not None and result.ok:
            self.add(proposal.package, result, proposal.note)

    def tilings(self, base: OperatorPackage) -> list[str]:
        """The tilings timed with `base`'s kernel other than its own, fastest first."""
        kernel = _kernel_hash(base)
        return [
            i.tiling
            for i in self.population
            if i.kernel_hash == kernel and i.tiling != base.tiling_source
        ]

    def step(self, base: OperatorPackage, base_result: EvalResult, round_: int) -> bool:
        kernel = _kernel_hash(base)
        if not any(
            i.kernel_hash == kernel and i.tiling == base.tiling_source for i in self.population
        ):
            self.add(base, base_result, "inherited best pair")
        # Fitness is only comparable under one kernel: select among individuals timed with this one.
        current = [i for i in self.population if i.kernel_hash == kernel]
        parent = min(
            self.rng.sample(current, min(self.config.tournament_size, len(current))),
            key=lambda i: i.latency_us,
        )
        elites = current[: self.config.elites_in_prompt]
        proposal = self.proposer.mutate(
            base, parent, elites, self.rng, self.evaluator.seen, self.evaluator.feedback(self.phase)
        )
        self.evaluator.trajectory.drain(self.proposer, phase=self.phase, round=round_)
        if proposal is None or proposal.package.content_hash() in self.evaluator.seen:
            return False
        parent_package = base.with_sources(tiling=parent.tiling)
        result = self.evaluator.evaluate(
            proposal.package, parent_package, self.phase, round_, proposal.note
        )
        if result is None:
            return False
        if result.ok:
            self.add(proposal.package, result, proposal.note)
        return True


class KernelRewriting:
    """Retrieval-augmented kernel rewriting with the tiling fixed: diagnose the best pair's
    bottleneck from its profile, retrieve the top-k experiences, rewrite, evaluate; the rewrite
    is kept (becomes the best pair) only if it is correct and faster."""

    phase = "stage2"

    def __init__(
        self,
        config: KernelRewritingConfig,
        proposer: Proposer,
        evaluator: Evaluator,
        bank: ExperienceBank,
        operator: str,
        rng: random.Random,
        knowledge: KnowledgeConfig,
        tilings: Callable[[OperatorPackage], list[str]] = lambda base: [],
    ):
        self.config, self.proposer, self.evaluator, self.bank, self.rng = (
            config,
            proposer,
            evaluator,
            bank,
            rng,
        )
        self.tilings = tilings  # Stage I's other tilings of a kernel, fastest first
        # The bank holds the suite experts' experience: an operator's own is withheld unless the
        # shared knowledge switches the paper's own-operator overlap on.
        self.exclude = None if knowledge.own_operator else operator

    def step(self, base: OperatorPackage, base_result: EvalResult, round_: int) -> bool:
        for pair, result in self._pairs(base, base_result):
            proposal = self._refine(pair, result, round_)
            if proposal is not None:
                return (
                    self.evaluator.evaluate(
                        proposal.package, pair, self.phase, round_, proposal.note
                    )
                    is not None
                )
        return False

    def _pairs(
        self, base: OperatorPackage, base_result: EvalResult
    ) -> Iterator[tuple[OperatorPackage, EvalResult]]:
        """The best pair, then its kernel under Stage I's next-fastest tilings: a rewrite that pays
        only with another tiling (an L2 bypass of read-once inputs under a core cap) is found only
        there, and the tiling stays fixed for each rewrite."""
        yield base, base_result
        for tiling in self.tilings(base)[: self.config.elite_tilings]:
            pair = base.with_sources(tiling=tiling)
            result = self.evaluator.passed.get(pair.content_hash())
            if result is not None:
                yield pair, result

    def _refine(
        self, base: OperatorPackage, base_result: EvalResult, round_: int
    ) -> Proposal | None:
        diagnosis = diagnose(base_result.profile, base.kernel_source)
        retrieved = self.bank.retrieve(
            diagnosis,
            self.config.top_k,
            part="kernel",
            exclude_operator=self.exclude,
            distinct_motifs=self.config.distinct_motifs,
        )
        self.evaluator.trajectory.write(
            "retrieval",
            phase=self.phase,
            round=round_,
            diagnosis=diagnosis,
            retrieved=[
                {"title": e.title, "operator": e.operator, "motif": e.motif, "score": round(s, 4)}
                for e, s in retrieved
            ],
        )
        proposal = self.proposer.refine(
            base,
            base_result,
            diagnosis,
            retrieved,
            self.evaluator.seen,
            self.rng,
            self.evaluator.feedback(self.phase),
        )
        self.evaluator.trajectory.drain(self.proposer, phase=self.phase, round=round_)
        if proposal is None or proposal.package.content_hash() in self.evaluator.seen:
            return None
        return proposal


def _kernel_hash(package: OperatorPackage) -> str:
    return hashlib.sha256(package.kernel_source.encode()).hexdigest()
