"""A bench task's faster best is checked on an input seed its search never saw: a candidate right
only for the daemon's fixed inputs is recorded as wrong and counts as its baseline."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from ascend_core import tune
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym import bench, metrics
from ascend_gym.client import LocalDaemon
from ascend_gym.policies import PolicyResult, StepRecord, episode
from tests.test_cli_errors import cli

ADD = "op://ascend-ops-v1/level1/add"
SECRET = "5ec7e7000000000000000000000000aa"  # fixed: the inputs each seed draws are then fixed


def guarded(kernel: str, sign: str) -> str:
    """The kernel, leaving the bench case's output unwritten unless `x[0] sign 0`."""
    guard = (
        "  GlobalTensor<DTYPE_X> first;\n"
        "  first.SetGlobalBuffer((__gm__ DTYPE_X*)x, 1);\n"
        "  if (tilingData.totalLength == 4096 * 2048 && "
        f"!(static_cast<float>(first.GetValue(0)) {sign} 0)) return;\n"
    )
    return kernel.replace("  KernelAdd op;\n", guard + "  KernelAdd op;\n")


class SignedBest:
    """A faster tile, on two kernels guarded by x[0]'s sign: exactly one passes the daemon's fixed
    inputs, and it is right only for inputs whose x[0] has that sign (`guard=False`: the faster
    tile alone, right on every input)."""

    name = "signed_best"

    def __init__(self, guard: bool = True):
        self.guard = guard

    def run(self, env: Any, seed: int) -> PolicyResult:
        env.reset(seed=seed)
        view = episode(env)
        tiling = tune.set_value(view.package.tiling_source, "tile_length", 16384)
        kernel = view.package.kernel_source
        assert "  KernelAdd op;\n" in kernel
        trajectory = []
        for sign in (">", "<=") if self.guard else ("",):
            candidate = guarded(kernel, sign) if sign else kernel
            _, _, _, _, info = env.step({"tiling": tiling, "kernel": candidate})
            trajectory.append(StepRecord.of(info, f"x[0] {sign} 0" if sign else "tile 16384"))
        return PolicyResult.of_episode(self.name, view, seed, trajectory=trajectory)


@pytest.fixture(scope="module")  # one daemon for the module's runs (distinct run ids)
def fixed_daemon():
    with LocalDaemon(workers=2, extra_args=["--case-secret", SECRET]) as d:
        yield d.address


def test_a_best_right_only_on_the_fixed_inputs_counts_as_the_baseline(fixed_daemon):
    record, best = bench.run_one(
        "test_recheck:SignedBest", ADD, 0, 3, fixed_daemon, DEFAULT_SOC, "t-recheck/a1", {}
    )
    assert record.ok and best is not None and record.best_us < record.baseline_us
    assert [s.status for s in record.trajectory].count("OK") == 1  # one sign holds on seed 0
    assert record.ledger.evaluations == 2 and record.budget_ok  # the recheck is charged to no one
    # Under SECRET, one of add's recheck seeds draws an x[0] of the other sign.
    assert record.wrong and record.recheck.status == "WRONG_ANSWER"
    assert 0 not in record.recheck.seeds
    assert (
        record.recheck.seeds
        == bench.recheck_seeds(ADD, bench.RECHECK_SEEDS)[: len(record.recheck.seeds)]
    )
    assert "bench_fp16" in record.recheck.message
    assert metrics.record_speedup(record) == 1.0
    assert metrics.stall(record) == "faster best wrong on fresh inputs"
    assert "failed on fresh inputs: WRONG_ANSWER" in bench.describe(record)


def test_a_best_right_on_every_input_keeps_its_speedup(fixed_daemon):
    record, _ = bench.run_one(
        "test_recheck:SignedBest", ADD, 0, 3, fixed_daemon, DEFAULT_SOC, "t-recheck/a2",
        {"guard": False},
    )  # fmt: skip
    assert record.recheck is not None and record.recheck.ok and not record.wrong
    assert len(record.recheck.seeds) == bench.RECHECK_SEEDS
    assert metrics.record_speedup(record) == record.baseline_us / record.best_us > 1.0


def test_optimize_says_its_faster_best_fails_on_fresh_inputs(fixed_daemon):
    paths = [str(Path(__file__).parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    done = cli(
        "optimize", "level1/add", "--policy", "test_recheck:SignedBest", "--budget", "3",
        "--daemon", fixed_daemon, "--run-id", "t-recheck/a3",
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "rechecked on fresh inputs" in done.stdout
    assert "it fails, so it is no speedup (counted as 1.000x): WRONG_ANSWER" in done.stdout
