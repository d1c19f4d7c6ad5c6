"""The calibration anchors of HARDWARE.md section 5 as operator packages, and a runner that times
each anchor case with the sim backend (each case in turn as the package's bench case).

Measured values are msprof Task Durations on 48-AIV Atlas A2 parts; compare with Ascend910B2.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ascend_gym.package import OperatorPackage, load_package
from ascend_gym.protocol import EvalRequest, Stage, Status, Timeouts

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Anchor:
    name: str
    package: str
    cases: tuple[tuple[str, float], ...]  # (case, measured Task Duration in us), in ladder order
    ladder: bool  # durations must keep their measured order
    tolerance: float  # acceptance: |simulated / measured - 1|


ANCHORS: dict[str, Anchor] = {
    "A1": Anchor("A1", "a1_add", (
        ("case0_scalar_1core", 1239689.0), ("case1_vector_1core", 6909.6), ("case2_48core_8k", 306.58),
        ("case3_48core_32k", 268.5), ("case4_double_buffer", 264.02), ("case5_l2_bypass", 187.68),
        ("case6_tile_16256", 184.52)), ladder=True, tolerance=0.25),
    "A2": Anchor("A2", "a2_read", (
        ("tile_1x64", 564.84), ("tile_64x64", 233.54), ("tile_64x1024", 215.82), ("tile_64x1024_unaligned", 275.3),
        ("shared_same_order", 539.42), ("shared_staggered", 328.88)), ladder=False, tolerance=0.25),
}


@dataclass(frozen=True)
class Row:
    anchor: str
    case: str
    simulated_us: float
    measured_us: float

    @property
    def error(self) -> float:
        return self.simulated_us / self.measured_us - 1


def with_bench(pkg: OperatorPackage, case: str) -> OperatorPackage:
    """The package with `case` as its one bench case."""
    cases = [c.model_copy(update={"bench": c.name == case}) for c in pkg.spec.cases]
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases})})


def time_case(pkg: OperatorPackage, case: str, soc: str) -> float:
    from npu_daemon.backends.sim import SimBackend  # the backend builds the runtime on first use

    with tempfile.TemporaryDirectory(prefix="calibrate-") as tmp:
        request = EvalRequest(package=with_bench(pkg, case), soc=soc, stages=[Stage.TIME],
                              timeouts=Timeouts(build_s=300, run_s=600))
        result = SimBackend().evaluate(request, Path(tmp))
    if result.status is not Status.OK:
        raise RuntimeError(f"{pkg.spec.name}/{case}: {result.status.value}: {result.message}")
    return float(result.latency_us)


def calibrate(names: list[str], soc: str, skip: set[str] = frozenset()) -> list[Row]:
    rows = []
    for name in names:
        anchor = ANCHORS[name]
        pkg = load_package(HERE / anchor.package)
        for case, measured in anchor.cases:
            if case not in skip:
                rows.append(Row(name, case, time_case(pkg, case, soc), measured))
    return rows


def ladder_ok(rows: list[Row]) -> bool:
    """Within each ladder anchor, simulated durations fall in the measured order."""
    for anchor in {r.anchor for r in rows}:
        if ANCHORS[anchor].ladder:
            ours = [r for r in rows if r.anchor == anchor]
            by_measured = sorted(ours, key=lambda r: -r.measured_us)
            if [r.case for r in by_measured] != [r.case for r in sorted(ours, key=lambda r: -r.simulated_us)]:
                return False
    return True
