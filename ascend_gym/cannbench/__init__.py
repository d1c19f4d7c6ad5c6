"""Huawei's cann-bench on the simulator: its tasks imported as specs with PyTorch goldens
(`tasks`, `importer`), its submissions read as packages (`submission`), generation on its tasks
(`torch_trace` lets the offline templates read a golden), and its score, HAP (`hap`, `run`).
docs/cann_bench.md has the commands and the figures."""

from pathlib import Path


class NotASubmission(ValueError):
    """The directory is not an operator of a layout we read; the message says what is missing."""


def project_text(path: Path, project: Path) -> str:
    """The text of `path`, a file of the submission `project`. A link whose target lies outside
    the project is refused: the package would carry that file's text to the daemon, whose compile
    messages may quote it."""
    if not path.resolve().is_relative_to(project.resolve()):
        raise NotASubmission(f"{path}: a link to {path.resolve()}, outside the submission")
    return path.read_text(errors="replace")
