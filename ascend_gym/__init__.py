"""ascend_gym: a research platform for optimising AscendC operators with agents."""

__version__ = "0.1.0"

import gymnasium

# Versioned env ids, registered in this one place. gymnasium 1.x ignores entry-point plugins, so
# registration happens on import. The sim backend is deterministic (same actions, same results);
# an NPU (cann) daemon times real hardware, so its id is declared nondeterministic. The step
# limit bounds episodes whose no-ops and resubmissions cost no evaluation budget.
_ENVS = {
    "AscendOp-v0": {"kwargs": {}, "nondeterministic": False},
    "AscendOpCann-v0": {"kwargs": {"backend": "cann"}, "nondeterministic": True},
}
MAX_EPISODE_STEPS = 400

for _id, _how in _ENVS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="ascend_gym.env:AscendOpEnv",
            max_episode_steps=MAX_EPISODE_STEPS,
            **_how,
        )


def make(operator: str = "level1/add", env_id: str = "AscendOp-v0", **kwargs):
    """`gym.make` of an ascend_gym env: `ascend_gym.make("level1/add", mode="discrete", budget=8)`.

    Keywords are AscendOpEnv's (mode, budget, soc, daemon, reward, render_mode, ...) and
    gym.make's (max_episode_steps, ...)."""
    return gymnasium.make(env_id, operator=operator, **kwargs)
