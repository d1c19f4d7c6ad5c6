"""`ascend-gym eval --timing-protocol`: the request option from the command line, through a daemon."""

from __future__ import annotations

import json
import subprocess
import sys


def evaluate(daemon: str, *flags: str) -> dict:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ascend_gym.cli",
            "eval",
            "level1/add",
            "--daemon",
            daemon,
            "--json",
            *flags,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_eval_times_warm_on_request(daemon):
    cold, warm = evaluate(daemon), evaluate(daemon, "--timing-protocol", "warm")
    assert "timing_protocol" not in cold["profile"] and warm["profile"]["timing_protocol"] == "warm"
    # The bench case's 48 MiB stay in the 910B4's L2 between launches, and the head is a warm one.
    assert warm["profile"]["l2_hit_bytes"] > cold["profile"]["l2_hit_bytes"]
    assert warm["latency_us"] < cold["latency_us"]
