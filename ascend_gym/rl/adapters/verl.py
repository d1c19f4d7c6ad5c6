"""verl: `compute_score` for its reward managers and an interaction for multi-turn rollouts.

    reward_model.reward_manager=batch
    custom_reward_function.path=ascend_gym/rl/adapters/verl.py custom_reward_function.name=compute_score_batch
    custom_reward_function.reward_kwargs.daemons=tcp://127.0.0.1:5555   (comma list; none: a local daemon)

Each row's `reward_model.ground_truth` is its operator's address. verl has no "no reward" value,
so an infrastructure fault that survives the pool's retries raises `InfrastructureFault` instead
of scoring 0. The interaction follows verl's BaseInteraction methods (start_interaction,
generate_response, calculate_score, finalize_interaction) without importing verl.
"""

from __future__ import annotations

import uuid
from typing import Any

from ascend_gym.rl.service import RewardService, Scored

_services: dict[tuple[str, str], RewardService] = {}


class InfrastructureFault(RuntimeError):
    """The reward could not be computed for a reason that is not the completion's: resubmit."""


def service_for(daemons: str = "", preset: str = "speedup") -> RewardService:
    """One service per (daemons, preset) in this process (verl calls compute_score per batch)."""
    key = (daemons, preset)
    if key not in _services:
        _services[key] = RewardService([a for a in daemons.split(",") if a] or None, preset)
    return _services[key]


def _as_verl(scored: Scored) -> dict[str, Any]:
    r = scored.reward
    if r.total is None:
        raise InfrastructureFault(f"{r.status}: {r.message}")
    return {
        "score": r.total,
        **r.components,
        "status": r.status,
        "simulated": r.simulated,
        "model": r.model,
    }


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: str,
    extra_info: dict | None = None,
    daemons: str = "",
    preset: str = "speedup",
) -> dict[str, Any]:
    """One completion (verl's naive reward manager)."""
    return _as_verl(service_for(daemons, preset).score([solution_str], [ground_truth])[0])


def compute_score_batch(
    data_sources: list[str],
    solution_strs: list[str],
    ground_truths: list[str],
    extra_infos: list[dict] | None = None,
    daemons: str = "",
    preset: str = "speedup",
) -> list[dict[str, Any]]:
    """A whole batch at once (verl's batch reward manager): evaluated concurrently."""
    return [_as_verl(s) for s in service_for(daemons, preset).score(solution_strs, ground_truths)]


class AscendInteraction:
    """verl multi-turn interaction: each assistant turn is scored and answered with feedback;
    the rollout ends on a correct kernel faster than `stop_speedup`, or after `max_turns`.
    Config keys: daemons, preset, max_turns, stop_speedup, max_feedback_chars."""

    def __init__(self, config: dict[str, Any]):
        self.config = config
        self.name = config.get("name", "ascend")
        self.service = service_for(config.get("daemons", ""), config.get("preset", "speedup"))
        self.max_turns = int(config.get("max_turns", 4))
        self.stop_speedup = float(config.get("stop_speedup", 1.2))
        self.max_chars = int(config.get("max_feedback_chars", 1500))
        self._instances: dict[str, dict[str, Any]] = {}

    async def start_interaction(
        self, instance_id: str | None = None, ground_truth: str = "", **_: Any
    ) -> str:
        instance_id = instance_id or uuid.uuid4().hex
        self._instances[instance_id] = {"operator": ground_truth, "turns": 0, "best": None}
        return instance_id

    async def generate_response(
        self, instance_id: str, messages: list[dict[str, Any]], **_: Any
    ) -> tuple[bool, str, float, dict[str, Any]]:
        state = self._instances[instance_id]
        state["turns"] += 1
        scored = (await self.service.ascore([messages], [state["operator"]]))[0]
        r = scored.reward
        if r.total is None:
            raise InfrastructureFault(f"{r.status}: {r.message}")
        state["best"] = r.total if state["best"] is None else max(state["best"], r.total)
        done = state["turns"] >= self.max_turns or (r.speedup or 0.0) >= self.stop_speedup
        text = scored.feedback(self.service.best_us.get(state["operator"]), self.max_chars)
        return done, text, r.total, {"reward": r.model_dump()}

    async def calculate_score(self, instance_id: str, **_: Any) -> float:
        return self._instances[instance_id]["best"] or 0.0  # no turn: nothing was submitted

    async def finalize_interaction(self, instance_id: str, **_: Any) -> None:
        self._instances.pop(instance_id, None)
