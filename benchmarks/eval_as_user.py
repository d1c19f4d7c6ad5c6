"""`ascend-gym eval DIR --json --run-timeout 600` on a package directory, as a user runs it: the
result, the wall time and the peak resident memory of the largest process of the evaluation (the
daemon, its worker or the harness). Shared by the benchmarks that evaluate a package of ours."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def evaluate(root: Path) -> tuple[dict[str, Any], float, float]:
    """(the EvalResult as JSON, wall seconds, peak RSS in GiB); exits on anything but OK."""
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", "eval", str(root), "--json"]
        + ["--run-timeout", "600"],
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - t0
    peak_gib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    if done.returncode not in (0, 1):
        sys.exit(f"eval failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    result = json.loads(done.stdout)
    if result["status"] != "OK":
        sys.exit(f"{result['status']} after {wall:.1f} s: {result['message']}")
    return result, wall, peak_gib
