"""TRL: an async `reward_funcs` entry and an `environment_factory` class for multi-turn rollouts.

    service = RewardService()
    trainer = GRPOTrainer(model, reward_funcs=[TrlReward(service)], train_dataset=as_dataset(tasks))

The dataset's `operator` column names each prompt's operator (tasks.as_dataset gives it). A
completion whose evaluation met an infrastructure fault gets None, which TRL leaves out of the
sum (never a 0). Each component's batch mean is logged as `ascend/<component>`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ascend_gym.rl.service import RewardService, Scored


class TrlReward:
    """`reward_funcs` entry: awaited by TRL on its own event loop."""

    def __init__(self, service: RewardService):
        self.service = service
        self.__name__ = f"ascend_{service.preset.name}"  # TRL's column name for it
        self.last: list[Scored] = []

    async def __call__(
        self,
        prompts: list[Any],
        completions: list[Any],
        operator: list[str],
        log_metric: Callable[[str, float], None] | None = None,
        **_: Any,
    ) -> list[float | None]:
        self.last = await self.service.ascore(completions, operator)
        if log_metric is not None:
            rewarded = [s.reward for s in self.last if s.reward.total is not None]
            for name in sorted({k for r in rewarded for k in r.components}):
                values = [r.components.get(name, 0.0) for r in rewarded]
                log_metric(f"ascend/{name}", sum(values) / len(values))
            log_metric("ascend/faults", float(len(self.last) - len(rewarded)))
        return [s.reward.total for s in self.last]


class AscendToolEnv:
    """`environment_factory` class: the model submits through the `submit` tool, reads the
    feedback, and may submit again (up to `max_turns`); the rollout's reward is its best
    submission's (`get_reward`).

        GRPOTrainer(..., environment_factory=lambda: AscendToolEnv(service))
    """

    def __init__(self, service: RewardService, max_turns: int = 4, max_feedback_chars: int = 1500):
        self.service, self.max_turns, self.max_feedback_chars = (
            service,
            max_turns,
            max_feedback_chars,
        )
        self.reset(operator="")

    def reset(self, operator: str = "", **_: Any) -> None:
        """A new rollout of the row's operator (the prompt already says the task)."""
        self.operator, self.turns, self.scores = operator, 0, []

    def submit(self, kernel: str, tiling: str = "") -> str:
        """Compile, check and time a new version of the operator on the simulated Ascend 910B.

        Args:
            kernel: The complete new device kernel source file (op_kernel/<op>.cpp).
            tiling: The complete new host tiling program (op_host/<op>.cpp); empty keeps the current one.

        Returns:
            The evaluation: status, first errors, per-case error, latency and speedup, bottleneck.
        """
        if self.turns >= self.max_turns:
            return f"No submissions left ({self.max_turns} per rollout)."
        self.turns += 1
        scored = self.service.score([{"kernel": kernel, "tiling": tiling}], [self.operator])[0]
        self.scores.append(scored)
        best = self.service.best_us.get(self.operator)
        return scored.feedback(best, self.max_feedback_chars)

    def get_reward(self) -> float | None:
        """The best submission's reward; 0 without a submission (a format failure); None when
        every submission met an infrastructure fault (not the model's doing)."""
        totals = [s.reward.total for s in self.scores if s.reward.total is not None]
        if totals:
            return max(totals)
        return None if self.scores else 0.0
