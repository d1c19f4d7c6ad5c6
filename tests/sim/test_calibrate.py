"""The constants fitted to public device measurements (docs/performance_model.md, The fitted
constants): each fitting anchor within a few percent of its figure on both engines, the anchor
kernel computing what it claims, and `sim calibrate` naming each fitted constant beside its anchor."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon.backends.sim import SimBackend
from npu_daemon.backends.sim.calibration import anchors

S2 = load_package(anchors.HERE / "s2_indirect_sum")


def test_every_fitted_constant_is_a_model_constant():
    model = anchors.model_constants()
    fitted = [c for a in anchors.ANCHORS.values() for c in a.fits]
    assert fitted and all(c in model for c in fitted)
    assert len(fitted) == len(set(fitted))  # one anchor fits each constant


def test_the_indirect_sum_anchor_computes_its_sum():
    """S2's kernel passes the reference check in both cases (S3's preloading loop too), and its
    offsets are what the public sample's are: 256 distinct 64 B lines of the 64 KiB buffer."""
    offsets = np.array(S2.spec.case("no_preload_256").values["indices"], dtype=np.int64)
    assert len(set(offsets // 64)) == 256 and (offsets % 64 == 0).all() and offsets.max() < 65536
    assert S2.spec.case("preload_256").values["indices"] == list(offsets)
    with tempfile.TemporaryDirectory() as tmp:
        request = EvalRequest(package=S2, stages=[Stage.COMPILE, Stage.CHECK])
        r = SimBackend().evaluate(request, Path(tmp))
    assert r.status is Status.OK, r.message


@pytest.mark.parametrize("backend", ["sim", "sim-guest"])
def test_fitted_anchors_meet_their_public_figures(backend):
    """L1 (launch_repeated_us), S2 (scalar_gm_access_cycles), H1 (launch_us), S3
    (dcache_preload_cycles) and H2 (H1's head on the preloading kernel) within 3 % of their
    measurements on either engine; the kernel's own instructions are each engine's unit."""
    names = ["L1", "S2", "H1", "S3", "H2"]
    rows = {r.anchor: r for r in anchors.calibrate(names, "Ascend910B2", backend=backend)}
    assert set(rows) == set(names)
    assert all(abs(r.error) < 0.03 for r in rows.values()), {a: r.error for a, r in rows.items()}


def test_the_indirect_sum_anchors_agree_across_engines():
    """S2, H1, S3 and H2 simulated within 1 % of each other by the two engines."""
    names = ["S2", "H1", "S3", "H2"]
    native, guest = (
        {r.anchor: r.simulated_us for r in anchors.calibrate(names, "Ascend910B2", backend=b)}
        for b in ("sim", "sim-guest")
    )
    assert all(abs(guest[a] / native[a] - 1) < 0.01 for a in names), (native, guest)


def test_calibrate_prints_each_constant_beside_its_anchor(capsys):
    from ascend_gym import cli

    assert cli.main(["sim", "calibrate", "--anchors", "S2,H1,S3"]) == 0
    out = capsys.readouterr().out
    model = anchors.model_constants()
    for anchor, case, constant in (
        ("S2", "no_preload_256", "scalar_gm_access_cycles"),
        ("H1", "no_preload_256", "launch_us"),
        ("S3", "preload_256", "dcache_preload_cycles"),
    ):
        line = next(s for s in out.splitlines() if s.startswith(f"| {anchor} | {case} |"))
        assert line.endswith(f"| {constant} = {model[constant]} |")
