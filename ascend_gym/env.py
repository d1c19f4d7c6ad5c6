"""AscendOp-v0: optimise one AscendC operator by rewriting its kernel and tiling programs."""

from __future__ import annotations

import math
import string
import uuid
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ascend_gym import suite
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.package import OperatorPackage
from ascend_gym.protocol import EvalRequest, EvalResult, Status

MAX_SOURCE_CHARS = 65536
SOURCE_CHARSET = frozenset(string.printable)
STATUSES = list(Status)
PIPE_RATIOS = ("aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio")
N_FEATURES = 1 + len(PIPE_RATIOS) + 2 + len(STATUSES)


def features(result: EvalResult, baseline_us: float) -> np.ndarray:
    """latency / baseline, per-pipe ratios, UB use, block dim / cores, status one-hot."""
    f = np.zeros(N_FEATURES, dtype=np.float32)
    if result.latency_us is not None and baseline_us > 0:
        f[0] = result.latency_us / baseline_us
    if result.profile is not None:
        for i, key in enumerate(PIPE_RATIOS):
            f[1 + i] = getattr(result.profile, key)
        f[1 + len(PIPE_RATIOS)] = result.profile.ub_bytes / max(result.profile.ub_capacity_bytes, 1)
        f[2 + len(PIPE_RATIOS)] = result.profile.block_dim / max(result.profile.aiv_cores, 1)
    f[3 + len(PIPE_RATIOS) + STATUSES.index(result.status)] = 1.0
    return f


class AscendOpEnv(gym.Env):
    """
    ## Description
    The state is an AscendC operator (host tiling program + device kernel program) and the result
    of its last evaluation. An action rewrites the kernel, the tiling program, or both; the
    candidate is compiled, checked against the numpy reference and timed by an npu_daemon (by
    default an embedded one running the AscendC CPU simulator, whose latencies are simulated).

    ## Action Space
    `Dict(tiling: Text, kernel: Text)`: the new source of each part; an empty string keeps the
    current one.

    ## Observation Space
    `Dict(tiling: Text, kernel: Text, features: Box(N_FEATURES))`: the current (last correct)
    sources and features of the last evaluation: latency / baseline latency, the vector, scalar,
    MTE2 and MTE3 pipe ratios, UB bytes used / UB size, block dim / vector cores, and a one-hot of
    the last status.

    ## Rewards
    For a correct candidate, log(best latency so far / candidate latency) (`reward="best_delta"`),
    or against the previous state's latency (`"prev_delta"`); with `"final"` only the last step is
    rewarded, with log(baseline / best). A failed candidate earns `failure_penalty` and leaves the
    state unchanged.

    ## Starting State
    The operator's baseline package and its evaluation.

    ## Episode End
    Truncation: the evaluation budget is spent (cache hits on identical candidates are free).

    ## Arguments
    >>> import gymnasium as gym, ascend_gym
    >>> env = gym.make("ascend_gym:AscendOp-v0", operator="level1/add", budget=2)  # doctest: +SKIP
    >>> obs, info = env.reset(seed=0)  # doctest: +SKIP

    operator: `level1/add`, `op://ascend-ops-v1/level1/add` or a package directory.
    budget: evaluations per episode. soc: SoC preset (`Ascend910B4`).
    daemon: None (embedded simulator daemon) or a `tcp://host:port` address.

    ## Version History
    - v0: code mode.
    """

    metadata = {"render_modes": []}

    def __init__(self, operator: str = "level1/add", mode: str = "code", budget: int = 40, soc: str = "Ascend910B4",
                 daemon: str | None = None, reward: str = "best_delta", failure_penalty: float = -1.0, run_id: str | None = None):
        if mode != "code":
            raise ValueError(f"mode {mode!r} is not available; modes: code")
        if reward not in ("best_delta", "prev_delta", "final"):
            raise ValueError(f"unknown reward {reward!r}")
        self.operator, self.mode, self.budget, self.soc = operator, mode, budget, soc
        self.reward_kind, self.failure_penalty = reward, failure_penalty
        self.run_id = run_id or f"env-{uuid.uuid4().hex[:12]}"
        self._local = LocalDaemon() if daemon is None else None
        self.client = DaemonClient(self._local.address if self._local else daemon)
        text = spaces.Text(max_length=MAX_SOURCE_CHARS, min_length=0, charset=SOURCE_CHARSET)
        self.action_space = spaces.Dict({"tiling": text, "kernel": text})
        self.observation_space = spaces.Dict({
            "tiling": text, "kernel": text,
            "features": spaces.Box(low=0.0, high=np.inf, shape=(N_FEATURES,), dtype=np.float32),
        })
        self.package: OperatorPackage | None = None

    # ---- Gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.seed_value = 0 if seed is None else seed
        self.package = suite.resolve((options or {}).get("operator", self.operator))
        self.baseline = self._evaluate(self.package, run_id=f"{self.run_id}/baseline")
        if not self.baseline.ok:
            raise RuntimeError(f"baseline of {self.package.uri} does not pass: {self.baseline.status.value}: {self.baseline.message}")
        self.baseline_us = self.baseline.latency_us
        self.best_us = self.prev_us = self.baseline_us
        self.best_package = self.package
        self.spent = 0
        self.last = self.baseline
        return self._obs(), self._info(self.baseline)

    def step(self, action: dict[str, str]):
        if self.package is None:
            raise RuntimeError("call reset() before step()")
        candidate = self.package.with_sources(tiling=action.get("tiling", ""), kernel=action.get("kernel", ""))
        result = self._evaluate(candidate, run_id=self.run_id)
        if not result.cache_hit:
            self.spent += 1
        self.last = result
        if result.ok:
            reward = self._reward(result.latency_us)
            self.package, self.prev_us = candidate, result.latency_us
            if result.latency_us < self.best_us:
                self.best_us, self.best_package = result.latency_us, candidate
        else:
            reward = self.failure_penalty
        truncated = self.spent >= self.budget
        if truncated and self.reward_kind == "final":
            reward += math.log(self.baseline_us / self.best_us)
        return self._obs(), float(reward), False, truncated, self._info(result)

    def close(self) -> None:
        self.client.close()
        if self._local is not None:
            self._local.close()
            self._local = None

    # ---- helpers -----------------------------------------------------------------------------
    def _evaluate(self, package: OperatorPackage, run_id: str) -> EvalResult:
        return self.client.evaluate(EvalRequest(run_id=run_id, package=package, soc=self.soc, seed=self.seed_value))

    def _reward(self, latency_us: float) -> float:
        if self.reward_kind == "best_delta":
            return math.log(self.best_us / latency_us)
        if self.reward_kind == "prev_delta":
            return math.log(self.prev_us / latency_us)
        return 0.0

    def _obs(self) -> dict[str, Any]:
        return {"tiling": self.package.tiling_source, "kernel": self.package.kernel_source,
                "features": features(self.last, self.baseline_us)}

    def _info(self, result: EvalResult) -> dict[str, Any]:
        return {"result": result, "budget_left": self.budget - getattr(self, "spent", 0), "baseline_us": self.baseline_us,
                "best_us": self.best_us, "run_id": self.run_id}

