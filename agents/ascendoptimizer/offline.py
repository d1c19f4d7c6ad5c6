"""The offline proposer: the whole method without a language model.

- Template: a tiling program without @tune markers gets them from the shared knowledge
  (`agents.templates.template`): on its real knobs, else on its integer `constexpr` constants.
- Mutation (Stage I): with probabilities from the config, a neighbour move (a tiling move of
  the shared knowledge, `agents.knowledge`: @tune x2, /2, +step, -step, block dim = cores, tile
  larger/smaller), a jump (one @tune number to a random value of its grid), or a crossover (each
  @tune number taken from the parent or from another elite individual).
- Inverse agent (rewind): the motifs' inverse rewrites, in a seeded random order.
- Distillation: the motif's title and description, and a Bottleneck made of the slow version's
  diagnosed profile plus the motif's symptom.
- Refinement (Stage II): the kernel moves of the shared knowledge (kernel rewrites and expert-diff
  transplants), ranked by the retrieved experiences: for each, best first, the rewrites that
  restore its motif and its own diff transplanted; then every other kernel move, in the order of
  the knowledge base. Best-of-N and OpenEvolve draw from exactly the same moves.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from agents import templates
from agents.ascendoptimizer.bank import Experience
from agents.ascendoptimizer.diagnose import diagnose
from agents.ascendoptimizer.motifs import BY_NAME, MOTIFS, Origin, transplant
from agents.ascendoptimizer.proposer import Distilled, Individual, Proposal
from agents.knowledge import Knowledge, KnowledgeConfig, Move
from ascend_core import tune
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult
from ascend_gym.policies import PolicyConfig


class OfflineMutationConfig(PolicyConfig):
    p_neighbour: float = Field(0.5, ge=0, le=1)  # catalogue neighbour move
    p_jump: float = Field(0.3, ge=0, le=1)  # random grid value; the rest is crossover
    attempts: int = Field(
        16, ge=1
    )  # draws per proposal before giving up on finding an unseen candidate


class OfflineProposer:
    name = "offline"

    def __init__(
        self, knowledge: Knowledge | None = None, mutation: OfflineMutationConfig | None = None
    ):
        # The rewind (bank build) needs no knowledge: it removes motifs and probes the rewrites.
        self.knowledge = knowledge or Knowledge(KnowledgeConfig(transplants=False))
        self.mutation = mutation or OfflineMutationConfig()
        self.log: list[dict[str, Any]] = []  # no model, no calls: stays empty

    # ---- Stage I -------------------------------------------------------------------------------
    def template(self, package: OperatorPackage) -> Proposal | None:
        """The shared knowledge's template: the tiling's real knobs, else its integer constants."""
        made = templates.template(package.tiling_source)
        if made is None:
            return None
        names = ", ".join(t.name for t in tune.find_tunables(made.tiling))
        return Proposal(
            package.with_sources(tiling=made.tiling),
            f"template: @tune markers on the tiling's {made.of} ({names})",
        )

    def mutate(
        self,
        package: OperatorPackage,
        parent: Individual,
        elites: list[Individual],
        rng: random.Random,
        seen: set[str],
        feedback: str = "",
    ) -> Proposal | None:
        base = package.with_sources(tiling=parent.tiling)
        for _ in range(self.mutation.attempts):
            moved = self._one_mutation(base, elites, rng)
            if moved is not None and moved[0].content_hash() not in seen:
                return Proposal(*moved)
        return None

    def _one_mutation(
        self, base: OperatorPackage, elites: list[Individual], rng: random.Random
    ) -> tuple[OperatorPackage, str] | None:
        draw = rng.random()
        if draw < self.mutation.p_neighbour:
            moves = self.knowledge.of_part(base, "tiling")
            if moves:
                m = rng.choice(moves)
                return m.package, f"neighbour {m.name}"
        if draw < self.mutation.p_neighbour + self.mutation.p_jump or len(elites) < 2:
            jump = self.knowledge.jump(base, rng)
            return None if jump is None else (jump.package, jump.name)
        other = rng.choice([e for e in elites if e.tiling != base.tiling_source] or elites)
        donor = {t.name: t.value for t in tune.find_tunables(other.tiling)}
        tiling, taken = base.tiling_source, []
        for t in tune.find_tunables(tiling):
            if t.name in donor and donor[t.name] != t.value and rng.random() < 0.5:
                tiling = tune.set_value(tiling, t.name, donor[t.name])
                taken.append(f"{t.name}={donor[t.name]}")
        if not taken:
            return None
        return base.with_sources(tiling=tiling), f"crossover {', '.join(taken)}"

    # ---- Stage II: rewind ------------------------------------------------------------------------
    def deoptimise(
        self,
        package: OperatorPackage,
        origin: Origin | None,
        tried: set[str],
        removed: set[str],
        rng: random.Random,
    ) -> Proposal | None:
        # The expert's own edits first (the motifs the suite's experts actually made, and what
        # sibling operators can reuse), then the generic motifs in a seeded random order. A generic
        # motif already removed from this chain is not removed again (a second scalar loop teaches
        # nothing the first did not).
        generic = [m for m in MOTIFS if m.name != "expert_structure" and m.name not in removed]
        rng.shuffle(generic)
        for motif in [BY_NAME["expert_structure"], *generic]:
            for variant, candidate in motif.inverse(package, origin):
                if candidate.content_hash() not in tried:
                    return Proposal(
                        candidate, f"rewind: removed {motif.name} ({variant})", motif=motif.name
                    )
        return None

    def distill(
        self,
        fast: OperatorPackage,
        slow: OperatorPackage,
        fast_result: EvalResult,
        slow_result: EvalResult,
        motif: str,
        diff: str,
    ) -> Distilled:
        m = BY_NAME[motif]
        title = m.title
        if m.name == "expert_structure":
            added = [
                line[1:].strip()
                for line in diff.splitlines()
                if line.startswith("+") and not line.startswith("+++")
            ]
            first = next((a for a in added if a and not a.startswith("//")), "")
            title = f"{m.title} of {fast.spec.name}: {first[:60]}" if first else m.title
        slowdown = slow_result.latency_us / fast_result.latency_us
        description = (
            f"{m.description} Without it {fast.spec.name} ran {slowdown:.2f}x slower (simulated)."
        )
        return Distilled(
            title, description, f"{diagnose(slow_result.profile, slow.kernel_source)}; {m.symptom}"
        )

    # ---- Stage II: refinement --------------------------------------------------------------------
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
        for how, move in self.ranked(package, retrieved):
            if move.package.content_hash() not in seen:
                return Proposal(move.package, f"{how}: {move.name}", motif=move.motif)
        return None

    def ranked(
        self, package: OperatorPackage, retrieved: list[tuple[Experience, float]]
    ) -> list[tuple[str, Move]]:
        """The knowledge's kernel moves, those the retrieved experiences point to first."""
        moves = self.knowledge.of_part(package, "kernel")
        out, taken = [], set()
        for experience, score in retrieved:
            why = f"experience '{experience.title}' from {experience.operator} ({score:.2f})"
            pointed = [m for m in moves if m.kind == "rewrite" and m.motif == experience.motif]
            own = transplant(package, experience.code_diff, experience.part)
            if own is not None:
                diff = f"transplant of its diff ({own[1]})"
                pointed.append(Move(diff, "transplant", "kernel", experience.motif, own[0]))
            for m in pointed:
                if m.package.content_hash() not in taken:
                    taken.add(m.package.content_hash())
                    out.append((why, m))
        rest = [("knowledge base", m) for m in moves if m.package.content_hash() not in taken]
        return out + rest
