"""AscendOptimizer's configuration: one model per component, composed by the root config."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agents.ascendoptimizer.embed import EmbedderKind
from agents.ascendoptimizer.offline import OfflineMutationConfig
from agents.ascendoptimizer.rewind import RewindConfig
from agents.knowledge import KnowledgeConfig
from agents.llm import LLMConfig
from ascend_gym.policies import PolicyConfig

Ablation = Literal["full", "stage1-only", "stage2-only"]


class TilingEvolutionConfig(PolicyConfig):
    """Evolutionary search over the tiling program (kernel fixed)."""

    population_size: int = Field(16, ge=1)  # individuals kept, fittest first
    tournament_size: int = Field(2, ge=1)  # parent = fittest of this many drawn at random
    elites_in_prompt: int = Field(
        3, ge=0
    )  # best individuals shown to the model (and crossover donors)
    synthesise_template: bool = (
        True  # ask for an evolvable template when the program has no @tune markers
    )
    offline: OfflineMutationConfig = OfflineMutationConfig()


class KernelRewritingConfig(PolicyConfig):
    """Retrieval-augmented kernel rewriting (tiling fixed)."""

    embedder: EmbedderKind = "auto"
    top_k: int = Field(3, ge=1)
    distinct_motifs: bool = True  # top-k holds one experience per motif
    # When nothing new is left to try on the best pair, the rewrites are tried under this many of
    # Stage I's next-fastest tilings of the same kernel (a rewrite may pay only with another tiling).
    elite_tilings: int = Field(3, ge=0)


class AscendOptimizerConfig(PolicyConfig):
    proposer: Literal["offline", "llm"] = "offline"
    llm: LLMConfig = LLMConfig()
    ablation: Ablation = "full"
    rounds: int = Field(4, ge=1)  # R
    stage1_steps: int = Field(6, ge=0)  # U: Stage I evaluations per round
    stage2_steps: int = Field(4, ge=0)  # S: Stage II evaluations per round
    proposal_attempts: int = Field(
        6, ge=1
    )  # failed or duplicate proposals tolerated per evaluation
    tiling_evolution: TilingEvolutionConfig = TilingEvolutionConfig()
    kernel_rewriting: KernelRewritingConfig = KernelRewritingConfig()
    # The bank and the moves every policy shares; the bank's own-operator overlap is a switch here.
    knowledge: KnowledgeConfig = KnowledgeConfig()
    rewind: RewindConfig = RewindConfig()  # used by `ascend-gym bank build`
    out_dir: str = ""  # trajectory.jsonl, result.json and the best package go here when set

    def steps(self) -> tuple[int, int]:
        """(U, S) per round after the ablation: an ablated stage's evaluations go to the other."""
        if self.ablation == "stage1-only":
            return self.stage1_steps + self.stage2_steps, 0
        if self.ablation == "stage2-only":
            return 0, self.stage1_steps + self.stage2_steps
        return self.stage1_steps, self.stage2_steps
