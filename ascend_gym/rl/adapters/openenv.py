"""An OpenEnv environment server: reset to an operator's task, step with a submission.

    python -m ascend_gym.rl.adapters.openenv --port 8000 [--taskset ascend-ops-v1] [--daemons ...]

reset(operator=..., seed=...) starts an episode on that operator (or one of the task set's train
operators drawn with the seed) and returns its prompt; step({"files": {...}} or {"text": ...})
evaluates the submission and returns the feedback, the reward and its components. An
infrastructure fault returns reward None with `retryable` set and does not spend a turn. The
episode ends after `max_turns` scored submissions. Each WebSocket session (OpenEnv's
EnvClient) has an environment of its own; all share one reward service.
"""

from __future__ import annotations

import argparse
import random
import sys
import uuid
from typing import Any

from openenv.core import Action, Environment, Observation, State, create_fastapi_app

from ascend_gym.rl.reward import PRESETS
from ascend_gym.rl.service import RewardService
from ascend_gym.rl.tasks import Task, load_taskset


class SubmitAction(Action):
    files: dict[str, str] = {}  # path -> new text (tool-argument form)
    text: str = ""  # or a completion with fenced blocks


class AscendObservation(Observation):
    operator: str = ""
    prompt: str = ""  # the task (after reset)
    feedback: str = ""  # what the last submission did
    status: str = ""
    components: dict[str, float] = {}
    retryable: bool = False
    simulated: bool = True
    model: str = ""


class AscendState(State):
    operator: str = ""
    best_reward: float | None = None


class AscendOpenEnv(Environment[SubmitAction, AscendObservation, AscendState]):
    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, service: RewardService, tasks: list[Task], max_turns: int = 4):
        super().__init__()
        self.service, self.max_turns = service, max_turns
        self.tasks = {t.operator: t for t in tasks}
        self._state = AscendState()

    def reset(
        self, seed: int | None = None, episode_id: str | None = None, operator: str = "", **_: Any
    ) -> AscendObservation:
        if not operator:
            train = sorted(t.operator for t in self.tasks.values() if t.split == "train")
            operator = random.Random(seed).choice(train)
        if operator not in self.tasks:
            raise ValueError(f"no task {operator!r} in this server's task set")
        self._state = AscendState(episode_id=episode_id or uuid.uuid4().hex, operator=operator)
        return AscendObservation(operator=operator, prompt=self.tasks[operator].prompt)

    def step(
        self, action: SubmitAction, timeout_s: float | None = None, **_: Any
    ) -> AscendObservation:
        completion: Any = {"files": action.files} if action.files else action.text
        scored = self.service.score([completion], [self._state.operator])[0]
        r = scored.reward
        if r.total is not None:
            self._state.step_count += 1
            best = self._state.best_reward
            self._state.best_reward = r.total if best is None else max(best, r.total)
        return AscendObservation(
            operator=self._state.operator,
            feedback=scored.feedback(self.service.best_us.get(self._state.operator)),
            status=r.status,
            components=r.components,
            retryable=r.retryable,
            simulated=r.simulated,
            model=r.model,
            reward=r.total,
            done=self._state.step_count >= self.max_turns,
        )

    @property
    def state(self) -> AscendState:
        return self._state


def app(service: RewardService, tasks: list[Task], max_turns: int = 4, max_sessions: int = 64):
    """The FastAPI app (OpenEnv's HTTP and WebSocket protocol) for uvicorn."""
    return create_fastapi_app(
        lambda: AscendOpenEnv(service, tasks, max_turns),
        SubmitAction,
        AscendObservation,
        max_concurrent_envs=max_sessions,
    )


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    ap = argparse.ArgumentParser(description="OpenEnv server of AscendC tasks over npu_daemon")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--taskset", default="ascend-ops-v1")
    ap.add_argument("--daemons", default="", help="comma list of daemon addresses (none: local)")
    ap.add_argument("--preset", default="speedup", choices=sorted(PRESETS))
    ap.add_argument("--max-turns", type=int, default=4)
    args = ap.parse_args(argv)
    try:
        tasks = load_taskset(args.taskset)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with RewardService([a for a in args.daemons.split(",") if a] or None, args.preset) as service:
        uvicorn.run(app(service, tasks, args.max_turns), host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
