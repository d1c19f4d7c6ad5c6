"""The calibration anchors of HARDWARE.md section 5 as operator packages, and a runner that times
each anchor case with the sim backend (each case in turn as the package's bench case).

A1 and A2 are msprof Task Durations (us) on 48-AIV Atlas A2 parts; compare with Ascend910B2. A3 and
A4 are single-core cycle counts of a vector loop: they are compared with the simulated aiv_vec_time
(the loop without the copies and the launch around it), and judged on ratios to a base case.
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
    cases: tuple[tuple[str, float], ...]  # (case, measured value), in ladder order
    ladder: bool  # durations must keep their measured order
    tolerance: float  # acceptance: |simulated / measured - 1|, of ratios when `base` is set
    base: str = ""  # ratio anchor: every case is compared as value / base case's value
    unit: str = "us"
    metric: str = "task_duration_us"  # the simulated profile field compared


ANCHORS: dict[str, Anchor] = {
    "A1": Anchor("A1", "a1_add", (
        ("case0_scalar_1core", 1239689.0), ("case1_vector_1core", 6909.6), ("case2_48core_8k", 306.58),
        ("case3_48core_32k", 268.5), ("case4_double_buffer", 264.02), ("case5_l2_bypass", 187.68),
        ("case6_tile_16256", 184.52)), ladder=True, tolerance=0.25),
    "A2": Anchor("A2", "a2_read", (
        ("tile_1x64", 564.84), ("tile_64x64", 233.54), ("tile_64x1024", 215.82), ("tile_64x1024_unaligned", 275.3),
        ("shared_same_order", 539.42), ("shared_staggered", 328.88)), ladder=False, tolerance=0.25),
    "A3": Anchor("A3", "a3_bank", (("no_conflict", 2390.0), ("read_read", 4167.0), ("read_write", 3751.0)),
                 ladder=False, tolerance=0.30, base="no_conflict", unit="cycles", metric="aiv_vec_time_us"),
    "A4": Anchor("A4", "a4_reduce", (("tree_adds", 172.0), ("whole_reduce_only", 242.0)),
                 ladder=False, tolerance=0.30, base="tree_adds", unit="cycles", metric="aiv_vec_time_us"),
}


@dataclass(frozen=True)
class Row:
    anchor: str
    case: str
    simulated_us: float  # the anchor's metric
    measured: float  # in the anchor's unit
    simulated_ratio: float | None = None  # ratio anchors: to the base case
    measured_ratio: float | None = None

    @property
    def error(self) -> float:
        if self.simulated_ratio is not None and self.measured_ratio is not None:
            return self.simulated_ratio / self.measured_ratio - 1
        return self.simulated_us / self.measured - 1


def with_bench(pkg: OperatorPackage, case: str) -> OperatorPackage:
    """The package with `case` as its one bench case."""
    cases = [c.model_copy(update={"bench": c.name == case}) for c in pkg.spec.cases]
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases})})


def time_case(pkg: OperatorPackage, case: str, soc: str, metric: str = "task_duration_us") -> float:
    """One profile field (us) of `case` run as the bench case."""
    from npu_daemon.backends.sim import SimBackend  # the backend builds the runtime on first use

    with tempfile.TemporaryDirectory(prefix="calibrate-") as tmp:
        request = EvalRequest(package=with_bench(pkg, case), soc=soc, stages=[Stage.TIME],
                              timeouts=Timeouts(build_s=300, run_s=600))
        result = SimBackend().evaluate(request, Path(tmp))
    if result.status is not Status.OK:
        raise RuntimeError(f"{pkg.spec.name}/{case}: {result.status.value}: {result.message}")
    return float(getattr(result.profile, metric))


def calibrate(names: list[str], soc: str, skip: set[str] = frozenset(), only: set[str] = frozenset()) -> list[Row]:
    """Time every case of the named anchors (leaving out `skip`; only `only` when given). A ratio
    anchor always times its base case too."""
    rows = []
    for name in names:
        anchor = ANCHORS[name]
        pkg = load_package(HERE / anchor.package)
        wanted = [(c, m) for c, m in anchor.cases if c not in skip and (not only or c in only)]
        if not anchor.base:
            rows += [Row(name, case, time_case(pkg, case, soc, anchor.metric), measured) for case, measured in wanted]
            continue
        if wanted:
            base = dict(anchor.cases)[anchor.base]
            base_us = time_case(pkg, anchor.base, soc, anchor.metric)
            for case, measured in wanted:
                us = base_us if case == anchor.base else time_case(pkg, case, soc, anchor.metric)
                rows.append(Row(name, case, us, measured, us / base_us, measured / base))
    return rows


def ladder_ok(rows: list[Row], min_step: float = 0.0) -> bool:
    """Within each ladder anchor, simulated values fall in the measured order, for every pair of
    cases whose measured values differ by more than `min_step` (relative; 0: every pair)."""
    for anchor in {r.anchor for r in rows}:
        if ANCHORS[anchor].ladder:
            ours = [r for r in rows if r.anchor == anchor]
            for a in ours:
                for b in ours:
                    if a.measured > b.measured * (1 + min_step) and not a.simulated_us > b.simulated_us:
                        return False
    return True
