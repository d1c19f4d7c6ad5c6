"""ascend_gym: a research platform for optimising AscendC operators with agents."""

__version__ = "0.1.0"

import gymnasium

# gymnasium 1.x ignores entry-point plugins: register on import.
if "AscendOp-v0" not in gymnasium.registry:
    gymnasium.register(id="AscendOp-v0", entry_point="ascend_gym.env:AscendOpEnv")
