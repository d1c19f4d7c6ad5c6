"""Every evaluation of AscendOptimizer goes through here: one env step (so the daemon ledger counts
it under the env's run_id exactly as for the baselines), one StepRecord and one trajectory record
with the diff against the parent, and the best pair so far."""

from __future__ import annotations

from typing import Any

from agents.ascendoptimizer.diagnose import profile_summary
from agents.ascendoptimizer.trajectory import Trajectory
from ascend_core.cpp import unified_diff
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult
from ascend_gym.env import code_action_of
from ascend_gym.policies import StepRecord, episode

MAX_FEEDBACK = 600  # characters of a failure's log shown to the model


class Evaluator:
    def __init__(self, env: Any, trajectory: Trajectory):
        self.env = env
        self.view = episode(env)
        self.trajectory = trajectory
        self.steps: list[StepRecord] = []
        self.best_package: OperatorPackage = self.view.package
        self.best_result: EvalResult = self.view.current
        self.seen = {
            self.best_package.content_hash()
        }  # candidates already submitted (resubmitting is pointless)
        self.per_phase: dict[str, int] = {}
        # Correct candidates by content hash: Stage II diagnoses a Stage I elite from its own result.
        self.passed: dict[str, EvalResult] = {self.best_package.content_hash(): self.best_result}
        self.failures: dict[str, list[str]] = {}  # phase -> what its failed candidates were told

    def feedback(self, phase: str, last: int = 3) -> str:
        """The compiler's or checker's words on the phase's latest failed candidates, for prompts."""
        return "\n".join(self.failures.get(phase, [])[-last:]) or "- (none so far)"

    @property
    def left(self) -> int:
        return self.view.budget - self.view.spent

    def evaluate(
        self,
        candidate: OperatorPackage,
        parent: OperatorPackage,
        phase: str,
        round_: int,
        note: str,
    ) -> EvalResult | None:
        """Submit a candidate (whole: tiling, kernel and its headers); None when the budget is spent."""
        if self.left <= 0:
            return None
        digest = candidate.content_hash()
        self.seen.add(digest)
        spent_before = self.view.spent
        _, _, _, _, info = self.env.step(code_action_of(candidate))
        result: EvalResult = info["result"]
        self.per_phase[phase] = self.per_phase.get(phase, 0) + (self.view.spent - spent_before)
        if not result.ok and not result.daemon_fault:
            said = " ".join(f"{result.message} {result.log_tail[-MAX_FEEDBACK:]}".split())
            self.failures.setdefault(phase, []).append(f"- {note}: {result.status.value}: {said}")
        if result.ok:
            self.passed[digest] = result
        improved = result.ok and result.latency_us < self.best_result.latency_us
        if improved:
            self.best_package, self.best_result = candidate, result
        self.steps.append(StepRecord.of(info, note, phase))
        self.trajectory.write(
            "evaluation",
            phase=phase,
            round=round_,
            note=note,
            evaluation=self.view.spent,
            candidate_hash=digest,
            parent_hash=parent.content_hash(),
            status=result.status.value,
            latency_us=result.latency_us,
            best_us=self.best_result.latency_us,
            improved=improved,
            cache_hit=result.cache_hit,
            simulated=result.simulated,
            message=result.message[:600],
            profile=profile_summary(result.profile) if result.profile else None,
            tiling_diff=unified_diff(
                parent.tiling_source, candidate.tiling_source, candidate.host_path
            ),
            kernel_diff=unified_diff(
                parent.kernel_source, candidate.kernel_source, candidate.kernel_path
            ),
        )
        return result
