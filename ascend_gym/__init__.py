"""ascend_gym: a research platform for optimising AscendC operators with agents."""

__version__ = "0.1.0"
