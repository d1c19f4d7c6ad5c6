"""Wrappers for AscendOp-v0: what long runs need around the task, kept out of `step()`.

- `BudgetCounter`: evaluations spent across episodes, with an optional total budget.
- `TrajectoryRecorder`: one JSON line per step (candidate hash, diff, result, reward).
- `FaultTolerant`: a daemon fault (or any exception) ends the episode instead of the run.
- `CycleOperators` / `RandomOperators`: train over a set of operators (e.g. a suite level).
- `ActionMaskObservation`: `Dict(action_mask, observations)` for RL libraries that mask logits.
"""

from __future__ import annotations

import difflib
import json
import time
import traceback
from itertools import cycle
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult, Status


class BudgetCounter(gym.Wrapper):
    """Counts evaluations charged and steps taken over the wrapper's lifetime (every episode).

    With `total_budget`, the episode in which the total is reached is truncated and so is every
    later one at its first step, so a sweep can give a policy N evaluations over many episodes.
    `info["evaluations_total"]` and `info["total_budget_left"]` report the count.
    """

    def __init__(self, env: gym.Env, total_budget: int | None = None):
        super().__init__(env)
        self.total_budget = total_budget
        self.evaluations = 0
        self.steps = 0
        self.episodes = 0

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self.episodes += 1
        return obs, self._count(info)

    def step(self, action: Any):
        before = self.env.unwrapped.spent
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.steps += 1
        self.evaluations += self.env.unwrapped.spent - before
        info = self._count(info)
        if self.total_budget is not None and self.evaluations >= self.total_budget:
            truncated = True
        return obs, reward, terminated, truncated, info

    def _count(self, info: dict[str, Any]) -> dict[str, Any]:
        info = dict(info, evaluations_total=self.evaluations)
        if self.total_budget is not None:
            info["total_budget_left"] = max(self.total_budget - self.evaluations, 0)
        return info


def source_diff(parent: OperatorPackage, candidate: OperatorPackage, context: int = 2) -> str:
    """Unified diff of the files a candidate changed."""
    out = []
    for path in sorted(set(parent.files) | set(candidate.files)):
        old, new = parent.files.get(path, ""), candidate.files.get(path, "")
        if old != new:
            out += difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"a/{path}",
                f"b/{path}",
                n=context,
            )
    return "".join(out)


class TrajectoryRecorder(gym.Wrapper):
    """Appends one JSON line per step to `path`: episode, step, operator, action, parent and
    candidate hashes, the diff, the full EvalResult, reward, flags and budget. The last step of
    an episode also carries the env state, so `ascend-gym validate` can re-check the file."""

    def __init__(self, env: gym.Env, path: str | Path):
        super().__init__(env)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.episode = -1
        self._step = 0

    def reset(self, **kwargs: Any):
        out = self.env.reset(**kwargs)
        self.episode += 1
        self._step = 0
        return out

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        base_env = self.env.unwrapped
        parent, candidate = base_env.last_parent, base_env.last_candidate
        result: EvalResult | None = info.get("result") if info.get("candidate_hash") else None
        record = {
            "time": time.time(),
            "run_id": base_env.run_id,
            "episode": self.episode,
            "step": self._step,
            "operator": base_env.baseline_package.uri,
            "mode": base_env.mode,
            "action": _jsonable_action(action),
            "rewrite": info.get("rewrite"),
            "noop": info.get("noop", False),
            "parent_hash": parent.content_hash() if parent is not None else None,
            "candidate_hash": info.get("candidate_hash"),
            "diff": source_diff(parent, candidate)
            if parent is not None and candidate is not None
            else "",
            "result": result.model_dump(mode="json") if result is not None else None,
            "reward": reward,
            "terminated": terminated,
            "truncated": truncated,
            "budget_left": info.get("budget_left"),
            "best_us": info.get("best_us"),
            "baseline_us": info.get("baseline_us"),
            "simulated": result.simulated if result is not None else None,
            "error": info.get("error"),
        }
        if (terminated or truncated) and base_env.package is not None:
            record["state"] = base_env.state.model_dump(mode="json")
        with self.path.open("a") as f:
            f.write(json.dumps(record) + "\n")
        self._step += 1
        return obs, reward, terminated, truncated, info


def _jsonable_action(action: Any) -> Any:
    if isinstance(action, dict):  # code mode: the sources are in the diff; keep the log small
        return {
            k: (f"<{len(v)} chars>" if isinstance(v, str) and v else v)
            for k, v in (
                (k, int(v) if isinstance(v, (np.integer, bool)) else v) for k, v in action.items()
            )
        }
    return int(action)


class FaultTolerant(gym.Wrapper):
    """Turns any exception from the wrapped env (a daemon that died or timed out, a client error,
    a bug) into a terminated episode: the default observation, reward 0, `info["error"]` with the
    traceback's last line, `info["fault"] = True` and a DAEMON_ERROR result. A fault in reset()
    returns the default observation and the next step terminates at once. step() never raises.

    The default observation is the last good one (the env's spaces do not change), or a zero
    observation before any.
    """

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self._last_obs: Any = None
        self._broken: tuple[str, str] | None = (
            None  # (error, traceback) of the fault that ended the episode
        )
        self.faults = 0

    def reset(self, **kwargs: Any):
        try:
            obs, info = self.env.reset(**kwargs)
        except Exception as e:  # noqa: BLE001 - the point of this wrapper
            self._broken = self._describe(e)
            self.faults += 1
            return self._default_obs(), self._fault_info()
        self._broken, self._last_obs = None, obs
        return obs, info

    def step(self, action: Any):
        if self._broken is not None:
            return self._default_obs(), 0.0, True, False, self._fault_info()
        try:
            obs, reward, terminated, truncated, info = self.env.step(action)
        except Exception as e:  # noqa: BLE001
            self._broken = self._describe(e)
            self.faults += 1
            return self._default_obs(), 0.0, True, False, self._fault_info()
        self._last_obs = obs
        return obs, reward, terminated, truncated, info

    @staticmethod
    def _describe(e: Exception) -> tuple[str, str]:
        return f"{type(e).__name__}: {e}", traceback.format_exc()[-2000:]

    def _default_obs(self) -> Any:
        return self._last_obs if self._last_obs is not None else _zeros(self.observation_space)

    def _fault_info(self) -> dict[str, Any]:
        error, trace = self._broken
        base_env = self.env.unwrapped
        mask = (
            np.zeros(self.action_space.n, dtype=bool)
            if isinstance(self.action_space, spaces.Discrete)
            else None
        )
        if mask is not None:
            mask[-1] = True  # only "done" is left
        return {
            "error": error,
            "fault": True,
            "traceback": trace,
            "action_mask": mask,
            "result": EvalResult(request_id="", status=Status.DAEMON_ERROR, message=error),
            "budget_left": getattr(base_env, "budget", 0) - getattr(base_env, "spent", 0),
            "candidate_hash": None,
        }


def _zeros(space: spaces.Space) -> Any:
    if isinstance(space, spaces.Dict):
        return {k: _zeros(s) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Text):
        return ""
    if isinstance(space, spaces.Box):
        return np.clip(np.zeros(space.shape, dtype=space.dtype), space.low, space.high)
    if isinstance(space, spaces.Discrete):
        return int(space.start)
    raise TypeError(f"no default observation for {space}")


def _operators(operators: str | list[str]) -> list[str]:
    ops = suite.expand(operators) if isinstance(operators, str) else list(operators)
    if not ops:
        raise ValueError(f"no operators in {operators!r}")
    return ops


class CycleOperators(gym.Wrapper):
    """Each reset() moves to the next operator of `operators` (a list, or a `suite.expand` string
    such as "level1" or "smoke"), in order, round and round. An explicit
    `reset(options={"operator": ...})` wins and does not advance the cycle."""

    def __init__(self, env: gym.Env, operators: str | list[str]):
        super().__init__(env)
        self.operators = _operators(operators)
        self._next = cycle(self.operators)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        options = dict(options or {})
        options.setdefault("operator", next(self._next))
        return self.env.reset(seed=seed, options=options)


class RandomOperators(gym.Wrapper):
    """Each reset() draws an operator of `operators` uniformly, from a generator seeded by the
    first `reset(seed=...)` (or `seed`), so a seeded run visits the same operators."""

    def __init__(self, env: gym.Env, operators: str | list[str], seed: int | None = None):
        super().__init__(env)
        self.operators = _operators(operators)
        self._rng = np.random.default_rng(seed)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        options.setdefault("operator", self.operators[int(self._rng.integers(len(self.operators)))])
        return self.env.reset(seed=seed, options=options)


class ActionMaskObservation(gym.ObservationWrapper):
    """Discrete mode for RL libraries that mask logits (RLlib's action-masking RLModule):
    observation `Dict(action_mask: Box(0, 1, (K + 1,)), observations: <features Box>)`."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        if not isinstance(env.action_space, spaces.Discrete):
            raise ValueError("ActionMaskObservation needs the discrete mode")
        self.observation_space = spaces.Dict(
            {
                "action_mask": spaces.Box(0.0, 1.0, shape=(env.action_space.n,), dtype=np.float32),
                "observations": env.observation_space,
            }
        )

    def observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        base_env = self.env.unwrapped
        mask = (
            base_env.action_mask
            if base_env.package is not None
            else np.ones(self.action_space.n, dtype=bool)
        )
        return {"action_mask": mask.astype(np.float32), "observations": observation}
