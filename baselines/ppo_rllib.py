"""PPO (RLlib, new API stack) on AscendOp-v0's discrete mode: a bench policy, and a trainer over
a set of operators.

**As a bench policy** (`--policies ppo`, `PPOPolicy`) PPO learns online on the task's own episode,
under the task's budget and ledger like every other policy: the policy forks the episode into the
discrete mode (the same daemon run: the daemon charges each distinct candidate once and refuses
evaluation budget + 1), cuts the one long episode into segments of `segment_steps` steps (RLlib
learns from episodes; a segment's start is where the last one ended, nothing is re-evaluated),
and runs PPO iterations of `train_batch` steps until the budget is spent (or `max_iterations`).
The action mask drops non-applicable rewrites; `done` ends a segment, not the search. Its result
is the episode's best candidate, as for the LLM policies. Options (`--policy-config`, `"ppo"`):

| option | default | meaning |
|---|---|---|
| `train_batch` | 32 | env steps per PPO iteration (evaluations are only the charged ones) |
| `minibatch` | 16 | SGD minibatch size |
| `epochs` | 4 | SGD passes over each batch |
| `lr` | 3e-4 | learning rate |
| `hidden` | 64 | width of the two hidden layers of the policy and value networks |
| `entropy_coeff` | 0.01 | exploration bonus |
| `segment_steps` | 8 | steps per RLlib episode (a segment of the task's one episode) |
| `max_iterations` | 50 | bound on PPO iterations (a policy stuck on no-ops and cache hits spends nothing) |

**As a trainer** over an operator set, each env runner builds: AscendOp-v0(mode="discrete") ->
RandomOperators(ops) -> ActionMaskObservation -> FaultTolerant, so the policy sees the features
plus the action mask, trains over the operator set, and a daemon fault ends an episode instead of
the run. All env runners share one npu_daemon (an embedded simulator daemon unless --daemon is
given): every latency is simulated.

    python -m baselines.ppo_rllib --ops level1 --iterations 30 --out docs/ppo_learning_curve

writes `<out>.jsonl` (one line per iteration) and, with --plot, `<out>.png`: mean episode best
speedup (baseline / best latency of the episode, simulated) against training iterations.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
from pydantic import BaseModel, Field

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from ascend_core import suite
from ascend_gym import rewrites
from ascend_gym.client import LocalDaemon
from ascend_gym.policies import PolicyConfig, PolicyResult, StepRecord, episode
from ascend_gym.wrappers import ActionMaskObservation, FaultTolerant, RandomOperators

ENV_NAME = "ascend_gym_discrete"


class PPORunConfig(BaseModel):
    ops: str = "level1"  # suite.expand syntax: level1, smoke, or a comma list
    iterations: int = Field(30, ge=1)
    budget: int = Field(8, ge=1)  # evaluations per episode
    env_runners: int = Field(1, ge=0)
    train_batch: int = Field(256, ge=8)  # env steps per training iteration
    minibatch: int = Field(64, ge=4)
    epochs: int = Field(4, ge=1)
    lr: float = 3e-4
    hidden: int = 64
    entropy_coeff: float = 0.01
    seed: int = 0
    daemon: str | None = None


def make_env(env_config: dict[str, Any]) -> gym.Env:
    """The env RLlib builds in each env runner (a module-level function: Ray pickles it)."""
    ops = env_config["operators"]
    env = gym.make(
        "AscendOp-v0",
        operator=ops[0],
        mode="discrete",
        budget=env_config["budget"],
        daemon=env_config["daemon"],
        max_episode_steps=4 * env_config["budget"],
    )
    seed = env_config.get("seed", 0) + getattr(env_config, "worker_index", 0)
    return FaultTolerant(ActionMaskObservation(RandomOperators(env, ops, seed=seed)))


def _episode_metrics_callback():
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class BestSpeedup(RLlibCallback):
        """Logs each finished episode's best speedup (and whether a daemon fault ended it)."""

        def on_episode_end(self, *, episode, metrics_logger=None, **kwargs):
            info = episode.get_infos(-1)
            if info.get("fault"):
                metrics_logger.log_value("faulted_episodes", 1, reduce="sum")
                return
            metrics_logger.log_value(
                "best_speedup", float(info["speedup"]), reduce="mean", window=100
            )
            metrics_logger.log_value(
                "log_best_speedup", math.log(info["speedup"]), reduce="mean", window=100
            )

    return BestSpeedup


def ppo_config(
    env: str, env_config: dict[str, Any], cfg: PPORunConfig | PPOPolicyConfig, seed: int
):
    """PPO on the new API stack (torch, one local learner) with the action-masking module: what
    the trainer and the bench policy share; each adds its env runners."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    logging.getLogger("ray.rllib").setLevel(logging.ERROR)  # its new-API-stack notice
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .framework("torch")
        .environment(env, env_config=env_config, disable_env_checking=True)
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=cfg.train_batch,
            minibatch_size=cfg.minibatch,
            num_epochs=cfg.epochs,
            lr=cfg.lr,
            gamma=0.99,
            entropy_coeff=cfg.entropy_coeff,
        )
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config=DefaultModelConfig(fcnet_hiddens=[cfg.hidden, cfg.hidden]),
            )
        )
        .debugging(seed=seed)
    )


def build(cfg: PPORunConfig, daemon: str):
    """The trainer's PPO algorithm: env runners over the operator set."""
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    env_config = {
        "operators": suite.expand(cfg.ops),
        "budget": cfg.budget,
        "daemon": daemon,
        "seed": cfg.seed,
    }
    config = (
        ppo_config(ENV_NAME, env_config, cfg, cfg.seed)
        .env_runners(
            num_env_runners=cfg.env_runners,
            num_envs_per_env_runner=1,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
            sample_timeout_s=3600,
        )  # evaluations take seconds each
        .callbacks(_episode_metrics_callback())
    )
    return config.build_algo()


class PPOPolicyConfig(PolicyConfig):
    """The bench policy's options (the module's docstring explains each)."""

    train_batch: int = Field(32, ge=8)
    minibatch: int = Field(16, ge=4)
    epochs: int = Field(4, ge=1)
    lr: float = Field(3e-4, gt=0)
    hidden: int = Field(64, ge=4)
    entropy_coeff: float = Field(0.01, ge=0)
    segment_steps: int = Field(8, ge=1)
    max_iterations: int = Field(50, ge=1)


# The task's episode, by key, for the env RLlib builds in this process (no env runner actors:
# the episode's daemon run and its best stay here).
_EPISODES: dict[str, Segments] = {}


class Segments(gym.Wrapper):
    """One discrete-mode episode under one budget, served as RLlib episodes of `steps` steps:
    each starts from the best candidate so far (its state, restored without evaluating: the
    discrete env moves on from every correct candidate, a slower one included); `done` ends a
    segment; the spent budget ends all. Counts what the daemon charged, as the ledger does."""

    def __init__(self, env: gym.Env, steps: int):
        super().__init__(ActionMaskObservation(env))
        self.steps, self.taken, self.charged = steps, 0, 0
        self.trajectory: list[StepRecord] = []
        self.best_state = env.unwrapped.state
        self.obs = self.env.observation(env.unwrapped.observation())

    @property
    def spent(self) -> bool:
        return self.charged >= self.env.unwrapped.budget

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        base, self.taken = self.env.unwrapped, 0
        base.restore(self.best_state)
        self.obs = self.env.observation(base.observation())
        return self.obs, {}

    def step(self, action: int):
        base, self.taken = self.env.unwrapped, self.taken + 1
        if self.spent or int(action) == rewrites.DONE:
            return self.obs, 0.0, False, True, {}
        best_us, before = base.best_us, base.spent
        self.obs, reward, _, truncated, info = self.env.step(int(action))
        self.charged += info["evaluations"] - before
        if base.best_us < best_us:
            self.best_state = base.state
        if not info["noop"]:
            record = StepRecord.of_result(
                info["result"], self.charged, base.best_us, info["rewrite"] or "", "ppo"
            )
            self.trajectory.append(record)
        return self.obs, reward, False, truncated or self.taken >= self.steps, {}


def _segments_env(env_config: dict[str, Any]) -> gym.Env:
    return _EPISODES[env_config["episode"]]


class PPOPolicy:
    """PPO learning online on the task's episode, within its budget (the module docstring)."""

    name = "ppo"

    def __init__(self, **config: Any):
        self.config = PPOPolicyConfig(**config)

    def run(self, env: Any, seed: int) -> PolicyResult:
        import ray

        from ascend_gym.bench import start_ray

        env.reset(seed=seed)
        view = episode(env)
        fork = env.get_wrapper_attr("fork")(mode="discrete")  # the same run, budget and ledger
        key = f"{view.run_id}:{id(fork)}"
        _EPISODES[key] = segments = Segments(fork, self.config.segment_steps)
        if not ray.is_initialized():  # `optimize`: start it as a bench does, quietly
            start_ray(None)
        algo = self._build(key, seed)
        try:
            for _ in range(self.config.max_iterations):
                if segments.spent:
                    break
                algo.train()
            ran = episode(fork)
            return PolicyResult.of_episode(
                self.name,
                ran,
                seed,
                proposer="ppo",
                evaluations=segments.charged,
                trajectory=segments.trajectory,
                best_package=ran.best_package,
            )
        finally:
            algo.stop()
            _EPISODES.pop(key, None)
            fork.close()

    def _build(self, key: str, seed: int):
        from ray.tune.registry import register_env

        env = f"ascend_gym_segments_{key}"
        register_env(env, _segments_env)
        config = ppo_config(env, {"episode": key}, self.config, seed).env_runners(
            num_env_runners=0, rollout_fragment_length="auto"
        )  # sampled here, where the episode is
        return config.build_algo()


def row(iteration: int, result: dict[str, Any], started: float) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    return {
        "iteration": iteration,
        "best_speedup_mean": runners.get("best_speedup"),
        "episode_return_mean": runners.get("episode_return_mean"),
        "episodes": runners.get("num_episodes"),
        "env_steps": result.get("num_env_steps_sampled_lifetime"),
        "wall_s": round(time.time() - started, 1),
        "simulated": True,
    }


def train(cfg: PPORunConfig, out: Path | None = None) -> list[dict[str, Any]]:
    """Train for cfg.iterations; returns (and appends to `<out>.jsonl`) one row per iteration."""
    import ray

    # Its envs open their runs, so their daemon serves only those, as a remote one does.
    local = LocalDaemon(workers=2, require_run_tokens=True) if cfg.daemon is None else None
    ray.init(
        num_cpus=max(2, cfg.env_runners + 1),
        include_dashboard=False,
        log_to_driver=False,
        ignore_reinit_error=True,
    )
    rows: list[dict[str, Any]] = []
    started = time.time()
    try:
        algo = build(cfg, cfg.daemon or local.address)
        try:
            for i in range(1, cfg.iterations + 1):
                rows.append(row(i, algo.train(), started))
                print(json.dumps(rows[-1]), flush=True)
                if out is not None:
                    with out.with_suffix(".jsonl").open("a") as f:
                        f.write(json.dumps(rows[-1]) + "\n")
        finally:
            algo.stop()
    finally:
        ray.shutdown()
        if local is not None:
            local.close()
    return rows


def plot(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [
        (r["iteration"], r["best_speedup_mean"]) for r in rows if r["best_speedup_mean"] is not None
    ]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", ms=3)
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("PPO training iteration")
    ax.set_ylabel("mean episode best speedup (simulated)")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, field in PPORunConfig.model_fields.items():
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            type=type(field.default) if field.default is not None else str,
            default=field.default,
        )
    parser.add_argument("--out", type=Path, help="write <out>.jsonl (and <out>.png with --plot)")
    parser.add_argument("--plot", action="store_true")
    args = vars(parser.parse_args(argv))
    out, want_plot = args.pop("out"), args.pop("plot")
    cfg = PPORunConfig(**args)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_suffix(".jsonl").unlink(missing_ok=True)
    rows = train(cfg, out)
    if want_plot and out is not None:
        n_ops = len(suite.expand(cfg.ops))
        plot(
            rows,
            out.with_suffix(".png"),
            f"PPO on AscendOp-v0 discrete, {cfg.ops} ({n_ops} ops), budget {cfg.budget}, "
            f"{cfg.train_batch} steps/iter; sim backend",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
