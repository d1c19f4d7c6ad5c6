"""Huawei's cann-bench on the simulator: its tasks imported as specs with PyTorch goldens
(`tasks`, `importer`), its submissions read as packages (`submission`), generation on its tasks
(`torch_trace` lets the offline templates read a golden), and its score, HAP (`hap`, `run`).
docs/cann_bench.md has the commands and the figures."""


class NotASubmission(ValueError):
    """The directory is not an operator of a layout we read; the message says what is missing."""
