"""AscendOptimizer (arXiv 2603.23566), Algorithm 1: R rounds; in each, U Stage-I steps evolve the
tiling program with the kernel fixed, then S Stage-II steps rewrite the kernel with the tiling
fixed, retrieving from the rewind experience bank; the best (tiling, kernel) pair is inherited
from stage to stage and round to round. Ablations run one stage alone on the same budget.

Evaluations that a stage cannot use in a round (no new proposal to make) go to the other stage of
the same round, so the budget is not left unspent when one stage has run dry.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR, ExperienceBank
from agents.ascendoptimizer.config import AscendOptimizerConfig
from agents.ascendoptimizer.embed import make_embedder
from agents.ascendoptimizer.evaluator import Evaluator
from agents.ascendoptimizer.offline import OfflineProposer
from agents.ascendoptimizer.proposer import Proposer
from agents.ascendoptimizer.search import KernelRewriting, TilingEvolution
from agents.ascendoptimizer.trajectory import Trajectory
from agents.knowledge import Knowledge
from agents.llm import ChatClient, ModelGateway, Usage
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym.policies import PolicyResult, episode


class AscendOptimizerResult(PolicyResult):
    ablation: str = "full"
    rounds_done: int = 0
    stage_evaluations: dict[str, int] = {}
    found_better: bool = False
    llm_usage: Usage = Usage()
    bank: dict[str, Any] = {}
    trajectory_path: str = ""
    config: dict[str, Any] = {}


class AscendOptimizer:
    name = "ascendoptimizer"

    def __init__(self, **config: Any):
        self.config = AscendOptimizerConfig(**config)

    def make_proposer(
        self, operator: str, gateway: ModelGateway | None = None, soc: str = DEFAULT_SOC
    ) -> tuple[Proposer, ChatClient | None]:
        if self.config.proposer == "offline":
            knowledge = Knowledge(self.config.knowledge, operator, soc)
            return OfflineProposer(knowledge, self.config.tiling_evolution.offline), None
        from agents.ascendoptimizer.llm_proposer import LLMProposer

        assert gateway is not None, "a model-driven run talks to the model through its gateway"
        client = ChatClient(self.config.llm.model_copy(update={"base_url": gateway.base_url}))
        return LLMProposer(client), client

    def load_bank(self) -> ExperienceBank:
        root = Path(self.config.knowledge.bank_dir or DEFAULT_BANK_DIR)
        if not (root / "bank.jsonl").is_file():
            return ExperienceBank([], make_embedder("tfidf"), meta={"missing": str(root)})
        return ExperienceBank.load(root, self.config.kernel_rewriting.embedder)

    def run(self, env: Any, seed: int) -> AscendOptimizerResult:
        cfg = self.config
        rng = random.Random(seed)
        env.reset(seed=seed)
        view = episode(env)
        out = Path(cfg.out_dir) if cfg.out_dir else None
        trajectory = Trajectory(out / "trajectory.jsonl" if out else None)
        gateway = (
            ModelGateway(self.config.llm, charged=lambda: view.spent)
            if cfg.proposer == "llm"
            else None
        )
        proposer, client = self.make_proposer(view.package.uri, gateway, view.soc)
        evaluator = Evaluator(env, trajectory)
        u_steps, s_steps = cfg.steps()
        bank = self.load_bank() if s_steps else ExperienceBank([], make_embedder("tfidf"))
        trajectory.write(
            "start",
            operator=view.package.uri,
            seed=seed,
            budget=view.budget,
            run_id=view.run_id,
            proposer=proposer.name,
            config=cfg.model_dump(mode="json"),
            baseline_us=view.baseline_us,
            bank_size=len(bank),
            embedder=bank.embedder.name,
        )
        stage1 = TilingEvolution(cfg.tiling_evolution, proposer, evaluator, rng)
        stage2 = KernelRewriting(
            cfg.kernel_rewriting,
            proposer,
            evaluator,
            bank,
            view.package.uri,
            rng,
            cfg.knowledge,
            stage1.tilings,
        )
        rounds_done = 0
        try:
            for round_ in range(cfg.rounds):
                if evaluator.left <= 0 or (gateway is not None and gateway.exhausted):
                    break
                if round_ == 0 and u_steps:
                    stage1.synthesise_template(evaluator.best_package, round_)
                unused = u_steps - self._run_stage(stage1, u_steps, evaluator, round_)
                if s_steps:  # stage1-only: what a dry Stage I leaves stays unspent
                    unused = (
                        s_steps
                        + unused
                        - self._run_stage(stage2, s_steps + unused, evaluator, round_)
                    )
                if unused and u_steps:
                    self._run_stage(stage1, unused, evaluator, round_)
                rounds_done += 1
        finally:
            trajectory.close()
            if gateway is not None:
                gateway.close()
        if gateway is not None:
            gateway.check(view.spent, view.budget)
        best = evaluator.best_package
        result = AscendOptimizerResult.of_episode(
            self.name,
            view,
            seed,
            best_us=evaluator.best_result.latency_us,
            best_hash=best.content_hash(),
            proposer=proposer.name,
            trajectory=evaluator.steps,
            ablation=cfg.ablation,
            rounds_done=rounds_done,
            stage_evaluations=evaluator.per_phase,
            found_better=evaluator.best_result.latency_us < view.baseline_us,
            llm_usage=gateway.usage if gateway else Usage(),
            **(gateway.account() if gateway else {}),
            bank={
                "size": len(bank),
                "embedder": bank.embedder.name,
                # Not its build command: it holds the builder's paths, not this run's.
                **{k: v for k, v in bank.meta.items() if k not in ("stats", "command")},
            },
            trajectory_path=str(trajectory.path or ""),
            # Offline, no model is asked: its settings would only look as if one were.
            config=cfg.model_dump(mode="json", exclude={"llm"} if gateway is None else None),
        )
        if out is not None:
            best.write_to(out / "best")
            (out / "result.json").write_text(
                json.dumps(result.model_dump(mode="json"), indent=2) + "\n"
            )
        return result

    def _run_stage(
        self,
        stage: TilingEvolution | KernelRewriting,
        evaluations: int,
        evaluator: Evaluator,
        round_: int,
    ) -> int:
        """Up to `evaluations` charged evaluations of one stage; returns how many it spent. A stage
        that fails to make a new proposal `proposal_attempts` times in a row has run dry; steps that
        cost nothing (a daemon fault) are bounded by the same factor."""
        spent0, misses, steps = evaluator.view.spent, 0, 0
        while (
            evaluator.view.spent - spent0 < evaluations
            and evaluator.left > 0
            and misses < self.config.proposal_attempts
            and steps < evaluations * self.config.proposal_attempts
        ):
            stepped = stage.step(evaluator.best_package, evaluator.best_result, round_)
            misses, steps = (0 if stepped else misses + 1), steps + 1
        return evaluator.view.spent - spent0
