"""End-to-end checks of the walking skeleton: env, daemon round trip, failure statuses, bench."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import gymnasium as gym
import pytest

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from ascend_core import suite
from ascend_core.protocol import DEFAULT_BACKEND, EvalRequest, Status, Timeouts


def test_daemon_round_trip(client):
    result = client.evaluate(EvalRequest(run_id="t-roundtrip", package=suite.resolve("level1/add")))
    assert result.status is Status.OK, result.message
    assert result.simulated and result.backend == DEFAULT_BACKEND == "sim-guest"
    assert result.latency_us > 0
    assert result.profile.block_dim > 0 and result.profile.gm_read_bytes > 0
    assert {c.name for c in result.cases} == {
        c.name for c in suite.resolve("level1/add").spec.cases
    }
    assert all(c.passed and c.max_abs_error == 0 for c in result.cases)
    again = client.evaluate(EvalRequest(run_id="t-roundtrip", package=suite.resolve("level1/add")))
    assert again.cache_hit and again.latency_us == result.latency_us


def test_syntax_error_is_compile_error_with_compiler_message(client):
    pkg = suite.resolve("level1/add")
    broken = pkg.with_sources(kernel=pkg.kernel_source.replace("op.Process();", "op.Process()"))
    result = client.evaluate(EvalRequest(run_id="t-syntax", package=broken))
    assert result.status is Status.COMPILE_ERROR
    assert "op_kernel/add.cpp" in result.message and "expected" in result.message
    assert "error" in result.log_tail


def test_wrong_values_are_wrong_answer_with_max_error(client):
    pkg = suite.resolve("level1/add")
    wrong = pkg.with_sources(
        kernel=pkg.kernel_source.replace("Add(zLocal, xLocal, yLocal", "Sub(zLocal, xLocal, yLocal")
    )
    result = client.evaluate(EvalRequest(run_id="t-wrong", package=wrong))
    assert result.status is Status.WRONG_ANSWER
    failed = [c for c in result.cases if not c.passed]
    assert failed and failed[0].max_abs_error > 0.01
    assert "outside atol" in result.message


def test_infinite_loop_times_out_and_daemon_keeps_serving(client):
    pkg = suite.resolve("level1/add")
    looping = pkg.with_sources(
        kernel=pkg.kernel_source.replace(
            "GET_TILING_DATA(tilingData, tiling);",
            "GET_TILING_DATA(tilingData, tiling);\n  for (volatile int spin = 0;; spin = spin + 1) {}",
        )
    )
    result = client.evaluate(
        EvalRequest(run_id="t-loop", package=looping, timeouts=Timeouts(run_s=2))
    )
    assert result.status is Status.RUN_TIMEOUT
    assert client.evaluate(EvalRequest(run_id="t-loop", package=pkg)).status is Status.OK


def test_env_reset_and_step(daemon):
    env = gym.make("ascend_gym:AscendOp-v0", operator="level1/add", budget=2, daemon=daemon)
    try:
        obs, info = env.reset(seed=0)
        assert "TilingFunc" in obs["tiling"] and 'extern "C"' in obs["kernel"]
        assert info["result"].status is Status.OK and info["budget_left"] == 2
        baseline = info["baseline_us"]

        faster_tiling = obs["tiling"].replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 8192;")
        obs, reward, terminated, truncated, info = env.step({"tiling": faster_tiling, "kernel": ""})
        result = info["result"]
        assert result.status is Status.OK and not terminated and not truncated
        assert math.isclose(reward, math.log(baseline / result.latency_us), rel_tol=1e-9)
        assert "TILE_LENGTH = 8192;" in obs["tiling"]

        broken = obs["kernel"].replace("op.Process();", "op.Process()")
        obs, reward, terminated, truncated, info = env.step({"tiling": "", "kernel": broken})
        assert info["result"].status is Status.COMPILE_ERROR and reward == -1.0
        assert "op.Process();" in obs["kernel"]  # the state keeps the last good operator
        assert truncated and info["budget_left"] == 0
    finally:
        env.close()


@pytest.mark.slow  # the default run keeps a shorter check of the same behaviour: tests/test_results_reuse.py runs a bench end to end
def test_bench_command_on_one_op(tmp_path, daemon):
    out = tmp_path / "bench"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ascend_gym.cli",
            "bench",
            "--ops",
            "level1/add",
            "--policies",
            "random",
            "--budget",
            "3",
            "--out",
            str(out),
            "--daemons",
            daemon,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "GM speedup" in done.stdout and "random" in done.stdout
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 1 and records[0]["ok"], records
    assert records[0]["evaluations"] == 3 and records[0]["best_us"] <= records[0]["baseline_us"]
