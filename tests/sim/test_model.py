"""The performance model on small calibration shapes: determinism, the msprof profile, bank
conflicts from UB addresses, double buffering, the L2 hint, and (slow) the full anchor table."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon.backends.sim import SimBackend
from npu_daemon.backends.sim.calibration import anchors

A1 = load_package(anchors.HERE / "a1_add")


def timed(attrs: dict, shape=(1024, 1536), soc="Ascend910B2", protocol="flushed-repeated"):
    """Latency and profile of a1_add with the given schedule attrs on a small shape."""
    case = A1.spec.case("small_48core_32k").model_copy(
        update={"shapes": {"x": list(shape), "y": list(shape)}, "attrs": attrs, "bench": True}
    )
    others = [c.model_copy(update={"bench": False}) for c in A1.spec.cases if c.name != case.name]
    pkg = A1.model_copy(update={"spec": A1.spec.model_copy(update={"cases": [case, *others]})})
    with tempfile.TemporaryDirectory() as tmp:
        request = EvalRequest(package=pkg, soc=soc, stages=[Stage.TIME], timing_protocol=protocol)
        r = SimBackend().evaluate(request, Path(tmp))
    assert r.status is Status.OK, r.message
    return r.latency_us, r.profile.model_dump()


def test_deterministic_and_profile_fields():
    attrs = {"cores": 48, "tile": 4096}
    (a, prof), (b, _) = timed(attrs), timed(attrs)
    assert a == b
    assert prof["block_dim"] == 48 and len(prof["blocks"]) == 48
    for key in (
        "aiv_time_us",
        "aiv_vec_ratio",
        "aiv_scalar_ratio",
        "aiv_mte2_ratio",
        "aiv_mte3_ratio",
        "gm_to_ub_gbps",
    ):
        assert prof[key] > 0, key
    assert (
        prof["gm_read_bytes"] == 2 * 1024 * 1536 * 2 and prof["gm_write_bytes"] == 1024 * 1536 * 2
    )
    assert 0 < prof["aiv_mte2_ratio"] <= 1 and prof["task_duration_us"] == pytest.approx(a)


def test_bank_conflict_from_addresses():
    # x and y slots 32 KiB apart share bank groups; 16256 elements put them 8 groups apart.
    _, conflict = timed({"cores": 1, "tile": 16384, "double_buffer": 1}, shape=(256, 1024))
    _, clean = timed({"cores": 1, "tile": 16256, "double_buffer": 1}, shape=(256, 1024))
    assert conflict["bank_conflicts"] > 0 and clean["bank_conflicts"] == 0
    assert conflict["aiv_vec_time_us"] > 1.6 * clean["aiv_vec_time_us"]


def test_double_buffer_gain_small_when_copy_dominates():
    # A5: Add is ~10x cheaper than its copies, so overlapping it buys little.
    single, _ = timed({"cores": 1, "tile": 16384}, shape=(512, 1024))
    double, _ = timed({"cores": 1, "tile": 16384, "double_buffer": 1}, shape=(512, 1024))
    assert double < single < 1.35 * double


def test_more_cores_and_head_overhead():
    one, solo = timed({"cores": 1, "tile": 16384}, protocol="cold")
    many, prof = timed({"cores": 48, "tile": 16384}, protocol="cold")
    assert many - prof["head_us"] < (one - solo["head_us"]) / 8
    assert prof["head_us"] > 15 > solo["head_us"]  # a first launch of 48 cores costs ~20 us
    _, repeated = timed({"cores": 48, "tile": 16384})  # the default: a repeated launch
    assert repeated["head_us"] < 3.0 < prof["head_us"]  # 0.89 + 0.04 us per core


def test_soc_presets_change_time():
    b2, _ = timed({"cores": 40, "tile": 16384}, shape=(4096, 4096), soc="Ascend910B2")
    b4, _ = timed({"cores": 40, "tile": 16384}, shape=(4096, 4096), soc="Ascend910B4")
    assert b4 > 1.3 * b2  # half the HBM bandwidth


@pytest.mark.slow
def test_calibration_anchors():
    """The acceptance table: every A1/A2/S1/M1 case within +-25% of measured, the A3/A4 ratios within
    +-30%, A1's ladder order kept for rungs measured more than 5% apart; the two 1.7% rungs
    (3->4, 5->6) are ties in the model (docs/performance_model.md, known gaps)."""
    rows = anchors.calibrate(["A1", "A2", "A3", "A4", "S1", "M1"], "Ascend910B2")
    assert {r.anchor for r in rows} == {"A1", "A2", "A3", "A4", "S1", "M1"} and len(rows) == 22
    bad = [
        (r.case, f"{r.error:+.1%}")
        for r in rows
        if abs(r.error) > anchors.ANCHORS[r.anchor].tolerance
    ]
    assert anchors.ladder_ok(rows, min_step=0.05)
    a1 = {r.case: r.simulated_us for r in rows if r.anchor == "A1"}
    for faster, slower in (
        ("case4_double_buffer", "case3_48core_32k"),
        ("case6_tile_16256", "case5_l2_bypass"),
    ):
        assert abs(a1[faster] / a1[slower] - 1) < 0.01  # tied, not reversed by more than the noise
    assert not bad, bad


def test_calibrate_prints_pipe_times(capsys):
    """`sim calibrate --pipes`: A1's per-pipe busy times next to docs/ascendc.md's measured ones."""
    from ascend_gym import cli

    assert (
        cli.main(["sim", "calibrate", "--anchors", "A1", "--cases", "case2_48core_8k", "--pipes"])
        == 0
    )
    line = next(
        s
        for s in capsys.readouterr().out.splitlines()
        if s.startswith("| A1 | case2_48core_8k |") and " / " in s
    )
    cells = [c.split(" / ") for c in line.strip("| ").split(" | ")[2:]]
    assert [m for _, m in cells] == [
        "15.88",
        "215.49",
        "54.33",
    ]  # aiv_vec, aiv_mte2, aiv_mte3 measured
    assert all(float(sim.replace(",", "")) > 0 for sim, _ in cells)
