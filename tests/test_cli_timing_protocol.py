"""`ascend-gym eval --timing-protocol`: the request option from the command line, through a daemon,
and the protocol printed beside the latency."""

from __future__ import annotations

import json
import subprocess
import sys


def evaluate(daemon: str, *flags: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", "eval", "level1/add", "--daemon", daemon, *flags],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done


def test_eval_times_each_protocol_on_request_and_prints_it(daemon):
    runs = {
        p: json.loads(evaluate(daemon, "--json", "--timing-protocol", p).stdout)
        for p in ("cold", "flushed-repeated", "warm")
    }
    default = json.loads(evaluate(daemon, "--json").stdout)
    assert default["profile"]["timing_protocol"] == "flushed-repeated"
    assert default["latency_us"] == runs["flushed-repeated"]["latency_us"]
    assert "timing_protocol" not in runs["cold"]["profile"]
    assert runs["warm"]["profile"]["timing_protocol"] == "warm"
    # The bench case's 48 MiB stay in the 910B4's L2 between launches (warm: resident); a repeated
    # launch pays a smaller head than a first one.
    assert runs["warm"]["profile"]["l2_hit_bytes"] > runs["cold"]["profile"]["l2_hit_bytes"]
    latency = {p: r["latency_us"] for p, r in runs.items()}
    assert latency["warm"] < latency["flushed-repeated"] < latency["cold"]
    text = evaluate(daemon, "--timing-protocol", "warm").stdout
    assert f"{latency['warm']:.2f} us (simulated, Ascend910B4, warm)" in text
