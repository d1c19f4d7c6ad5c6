"""ascend_gym as a reward backend for training language models on AscendC (docs/rl.md).

parse (completion -> package), reward (presets, named components), feedback (the next turn's
text), tasks (suites as prompt datasets), service (the reward service over the daemons), and
adapters/ for TRL, verl, OpenRLHF (HTTP) and OpenEnv, none of which the core imports.
"""

from ascend_gym.rl.parse import FormatError, parse_completion
from ascend_gym.rl.reward import PRESETS, Reward, RewardPreset, score
from ascend_gym.rl.service import RewardService, Scored
from ascend_gym.rl.tasks import Task, load_taskset

__all__ = [
    "PRESETS",
    "FormatError",
    "Reward",
    "RewardPreset",
    "RewardService",
    "Scored",
    "Task",
    "load_taskset",
    "parse_completion",
    "score",
]
