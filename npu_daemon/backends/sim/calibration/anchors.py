"""The calibration anchors of docs/ascendc.md hardware 5 as operator packages, and a runner that times
each anchor case with the sim backend (each case in turn as the package's bench case).

A1 and A2 are msprof Task Durations (us) on 48-AIV Atlas A2 parts; compare with Ascend910B2. A3 and
A4 are single-core cycle counts of a vector loop: they are compared with the simulated aiv_vec_time
(the loop without the copies and the launch around it), and judged on ratios to a base case.
Either engine times them (`backend` "sim" or "sim-guest"): each charges the kernel's own scalar
work in its own unit (scalar_instr_cycles, guest_fuel_cycles), fitted to the same anchor.
"""

from __future__ import annotations

import tempfile
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, Profile, Stage, Status, Timeouts, TimingProtocol

HERE = Path(__file__).resolve().parent
Engine = Literal["sim", "sim-guest"]  # the daemon's --backend names of the two engines


@dataclass(frozen=True)
class Anchor:
    name: str
    package: str
    cases: tuple[tuple[str, float], ...]  # (case, measured value), in ladder order
    ladder: bool  # durations must keep their measured order
    tolerance: float  # acceptance: |simulated / measured - 1|, of ratios when `base` is set
    base: str = ""  # ratio anchor: every case is compared as value / base case's value
    unit: str = "us"
    # the simulated profile field compared; "aic_time_max_us": the largest per-core aic_time
    metric: str = "task_duration_us"
    # measured per-pipe busy times (us) by case, in PIPES order, where the anchor publishes them
    pipes: tuple[tuple[str, tuple[float, float, float]], ...] = ()
    soc: str = ""  # the part it was measured on, when it is not the command's (core counts differ)
    # The timing protocol of the measurement (EvalRequest.timing_protocol): msprof op Task
    # Durations are timed "cold" (docs/performance_model.md, Timing protocol), kernel times of
    # repeated launches in a benchmark harness "warm".
    protocol: TimingProtocol = "cold"
    # the cost constants (backends/sim/soc/model.toml) fitted to this anchor's measurement
    fits: tuple[str, ...] = ()


PIPES = ("aiv_vec_time_us", "aiv_mte2_time_us", "aiv_mte3_time_us")


def _hill_copy_us(nbytes: int, peak_gibs: float = 247.16, k_bytes: float = 30643.0) -> float:
    """One GM -> UB copy's time by pto-isa's fitted bandwidth curve, peak * B / (K + B)."""
    return (k_bytes + nbytes) / (peak_gibs * 2**30 / 1e6)


ANCHORS: dict[str, Anchor] = {
    "A1": Anchor(
        "A1",
        "a1_add",
        (
            ("case0_scalar_1core", 1239689.0),
            ("case1_vector_1core", 6909.6),
            ("case2_48core_8k", 306.58),
            ("case3_48core_32k", 268.5),
            ("case4_double_buffer", 264.02),
            ("case5_l2_bypass", 187.68),
            ("case6_tile_16256", 184.52),
        ),
        ladder=True,
        tolerance=0.25,
        pipes=(
            ("case0_scalar_1core", (0.015, 5916.0, 2485.0)),
            ("case1_vector_1core", (761.65, 6208.8, 2613.2)),
            ("case2_48core_8k", (15.885, 215.485, 54.33)),
            ("case3_48core_32k", (12.845, 184.369, 57.354)),
            ("case4_double_buffer", (12.846, 250.528, 84.988)),
            ("case5_l2_bypass", (12.846, 175.997, 160.291)),
            ("case6_tile_16256", (6.954, 171.611, 121.442)),
        ),
        fits=("scalar_ub_access_cycles", "mte3_bytes_per_cycle"),
    ),
    "A2": Anchor(
        "A2",
        "a2_read",
        (
            ("tile_1x64", 564.84),
            ("tile_64x64", 233.54),
            ("tile_64x1024", 215.82),
            ("tile_64x1024_unaligned", 275.3),
            ("shared_same_order", 539.42),
            ("shared_staggered", 328.88),
        ),
        ladder=False,
        tolerance=0.25,
        fits=("scalar_instr_cycles",),
    ),
    "A3": Anchor(
        "A3",
        "a3_bank",
        (("no_conflict", 2390.0), ("read_read", 4167.0), ("read_write", 3751.0)),
        ladder=False,
        tolerance=0.30,
        base="no_conflict",
        unit="cycles",
        metric="aiv_vec_time_us",
        fits=("vec_rw_conflict_factor",),
    ),
    # Cube anchors: Huawei's public Matmul tuning cases (asc-devkit docs/zh/guide, "Matmul性能调优案例":
    # "Matmul算子优化Tiling策略", "Matmul高阶API使能MDL模板", "Matmul高阶API使能UnitFlag", "Matmul高阶API使能纯Cube模式"); see
    # docs/performance_model.md. C1 on a 20-AIC part, Task Duration; C2/C3/C5/C6 the largest aic_time
    # over the cube cores, as the cases quote it ("多个核中最大").
    "C1": Anchor(
        "C1",
        "c1_matmul",
        (("t1_4core_base64", 12045.0), ("t1_20core_base64", 2532.0)),
        ladder=True,
        tolerance=0.25,
        soc="Ascend910B3",
        fits=("nd2nz_burst_cycles",),
    ),
    "C2": Anchor(
        "C2",
        "c1_matmul",
        (("t2_norm", 83.68), ("t2_mdl", 53.4)),
        ladder=True,
        tolerance=0.25,
        metric="aic_time_max_us",
        soc="Ascend910B2",
    ),
    # "Matmul高阶API使能UnitFlag" (before UnitFlag): the Matmul API in its default MIX mode, the shape
    # split over 20 (the part's AIC count) on 20 groups, so the AIVs below usedCoreNum, two per AIC,
    # hold the blocks: 10 AICs serve two clients each (docs/performance_model.md).
    "C3": Anchor(
        "C3",
        "c3_matmul_mix",
        (("t3_k64_mix20", 37.39),),
        ladder=False,
        tolerance=0.25,
        metric="aic_time_max_us",
        soc="Ascend910B4",
    ),
    # The C3 shape on a 24-AIC part, cube only ("Matmul高阶API使能纯Cube模式": 11.21 us; the same
    # kernel is 10.62 us in "Matmul高阶API使能Tiling全量常量化"): 15.7 MB of C in ~11 us.
    "C5": Anchor(
        "C5",
        "c1_matmul",
        (("t5_k64_24core", 11.21),),
        ladder=False,
        tolerance=0.25,
        metric="aic_time_max_us",
        soc="Ascend910B2",
    ),
    # C5's case before the change: MIX mode, split over the 48 AIVs (17.85 us). The pair isolates
    # the message framework's cost; mm_msg_cycles is fitted to it.
    "C6": Anchor(
        "C6",
        "c3_matmul_mix",
        (("t5_k64_mix48", 17.85),),
        ladder=False,
        tolerance=0.25,
        metric="aic_time_max_us",
        soc="Ascend910B2",
        fits=("mm_msg_cycles",),
    ),
    # The practical ceiling: the tuned large square-ish fp16 case keeps the cube ~80-85% busy
    # ("Cube利用率达到80%+"): aic_mac_ratio.
    "C4": Anchor(
        "C4",
        "c1_matmul",
        (("t1_20core_base128x256_mdl", 0.85),),
        ladder=False,
        tolerance=0.25,
        unit="ratio",
        metric="aic_mac_ratio",
        soc="Ascend910B3",
    ),
    # The launch: a tiny kernel's whole time over repeated launches (FlagGems' Ascend swiglu at
    # [4, 32] float32, kernel mode: flagos-ai/FlagGems pull 6324), the warm head plus a few
    # dependent instructions.
    "L1": Anchor(
        "L1",
        "l1_launch",
        (("swiglu_4x32_fp32", 1.393),),
        ladder=False,
        tolerance=0.25,
        protocol="warm",
        fits=("launch_repeated_us",),
    ),
    # L2-hit streaming (docs/performance_model.md): one core's GM -> UB copies of data resident in
    # L2, one at a time, against hw-native-sys/pto-isa's on-device fit of such a copy on a 910B3
    # (include/pto/costmodel/arch_config.hpp, MakeFittedHillModel): (K + bytes) / peak, peak 247.16
    # GiB/s, K 30,643 B, for the case's 1 MiB in copies of 8, 32 and 64 KiB.
    "P1": Anchor(
        "P1",
        "a2_read",
        tuple(
            (f"l2_copy_{kib}k", (1 << 20) // (kib << 10) * _hill_copy_us(kib << 10))
            for kib in (8, 32, 64)
        ),
        ladder=False,
        tolerance=0.25,
        metric="aiv_time_us",
        soc="Ascend910B3",
        protocol="resident-repeated",
        fits=("mte2_l2_hit_bytes_per_cycle",),
    ),
    # The scalar unit (docs/performance_model.md): a data cache miss at hicann/pypto's public cost
    # (L2 hit 50 + miss 150 cycles) for each of 4096 reads, 4096 x 200 cycles at 1.8 GHz.
    "S1": Anchor(
        "S1",
        "s1_scalar_walk",
        (("stride_64B", 4096 * 200 / 1800),),
        ladder=False,
        tolerance=0.25,
        metric="aiv_scalar_time_us",
    ),
    # A device measurement of the same (docs/performance_model.md): the asc-devkit examples'
    # DataCachePreload sample without the preload, msprof on an Atlas A2, five runs averaged. One
    # core loads 256 bytes at offsets it reads from GM, each on a line of its own. Its scalar time
    # fits the miss; its Task Duration less that time, the head of a first launch on one core (H1).
    "S2": Anchor(
        "S2",
        "s2_indirect_sum",
        (("no_preload_256", 29.254),),
        ladder=False,
        tolerance=0.25,
        metric="aiv_scalar_time_us",
        fits=("scalar_gm_access_cycles",),
    ),
    "H1": Anchor(
        "H1",
        "s2_indirect_sum",
        (("no_preload_256", 31.237),),
        ladder=False,
        tolerance=0.25,
        fits=("launch_us",),
    ),
    # The same sample with DataCachePreload (its scenario 2, kernel_with_preload): each step preloads
    # the line of the next step's byte. Its scalar time fits how long a preloaded line takes to fill
    # while the scalar unit runs on; its Task Duration checks H1's head on a second kernel.
    "S3": Anchor(
        "S3",
        "s2_indirect_sum",
        (("preload_256", 17.748),),
        ladder=False,
        tolerance=0.25,
        metric="aiv_scalar_time_us",
        fits=("dcache_preload_cycles",),
    ),
    "H2": Anchor(
        "H2",
        "s2_indirect_sum",
        (("preload_256", 19.840),),
        ladder=False,
        tolerance=0.25,
    ),
    # The merge unit (docs/performance_model.md): hw-native-sys/pto-isa's on-device (910B3) fit of a
    # 4-way MrgSort of four 64-pair fp32 lists a repeat, 78 cycles a repeat + 20
    # (include/pto/costmodel/a2a3/cce_costmodel/cce_costmodel_vector_compute.hpp, vmrgsort4), in
    # us at its 1.85 GHz, against the simulated vector pipe's busy time of one MrgSort.
    "M1": Anchor(
        "M1",
        "m1_mrgsort",
        tuple((f"repeat_{r}", (78 * r + 20) / 1850) for r in (1, 8, 32)),
        ladder=True,
        tolerance=0.25,
        metric="aiv_vec_time_us",
        soc="Ascend910B3",
        fits=("vec_cpr_merge_sort",),
    ),
    "A4": Anchor(
        "A4",
        "a4_reduce",
        (("tree_adds", 172.0), ("whole_reduce_only", 242.0)),
        ladder=False,
        tolerance=0.30,
        base="tree_adds",
        unit="cycles",
        metric="aiv_vec_time_us",
    ),
}


@dataclass(frozen=True)
class Row:
    anchor: str
    case: str
    simulated_us: float  # the anchor's metric
    measured: float  # in the anchor's unit
    simulated_ratio: float | None = None  # ratio anchors: to the base case
    measured_ratio: float | None = None
    pipes: tuple[float, float, float] = (0.0, 0.0, 0.0)  # simulated, in PIPES order

    @property
    def error(self) -> float:
        if self.simulated_ratio is not None and self.measured_ratio is not None:
            return self.simulated_ratio / self.measured_ratio - 1
        return self.simulated_us / self.measured - 1


def model_constants() -> dict[str, object]:
    """The model's cost constants as `profile_case` times with them (backends/sim/soc/model.toml)."""
    from npu_daemon.backends.sim.backend import MODEL

    return tomllib.loads(MODEL.read_text())


def with_bench(pkg: OperatorPackage, case: str) -> OperatorPackage:
    """The package with `case` as its one bench case."""
    cases = [c.model_copy(update={"bench": c.name == case}) for c in pkg.spec.cases]
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases})})


def profile_case(
    pkg: OperatorPackage,
    case: str,
    soc: str,
    protocol: TimingProtocol = "cold",
    backend: Engine = "sim",
) -> Profile:
    """The simulated profile of `case` run as the bench case under the timing `protocol` on the
    engine `backend`."""
    # the backend builds the runtime on first use
    from npu_daemon.backends.sim import GuestSimBackend, SimBackend

    with tempfile.TemporaryDirectory(prefix="calibrate-") as tmp:
        request = EvalRequest(
            package=with_bench(pkg, case),
            soc=soc,
            stages=[Stage.TIME],
            timeouts=Timeouts(build_s=300, run_s=600),
            timing_protocol=protocol,
        )
        engine = GuestSimBackend() if backend == "sim-guest" else SimBackend()
        result = engine.evaluate(request, Path(tmp))
    if result.status is not Status.OK:
        raise RuntimeError(f"{pkg.spec.name}/{case}: {result.status.value}: {result.message}")
    return result.profile


def metric_value(profile: Profile, metric: str) -> float:
    """The profile's field `metric`, or for "aic_time_max_us" the largest aic_time over the blocks."""
    if metric == "aic_time_max_us":
        return max(b["aic_time_us"] for b in profile.model_dump()["blocks"] if "aic_time_us" in b)
    return float(getattr(profile, metric))


def _row(anchor: Anchor, case: str, measured: float, profile: Profile) -> Row:
    return Row(
        anchor.name,
        case,
        metric_value(profile, anchor.metric),
        measured,
        pipes=tuple(float(getattr(profile, f)) for f in PIPES),
    )


def calibrate(
    names: list[str],
    soc: str,
    skip: set[str] = frozenset(),
    only: set[str] = frozenset(),
    protocol: TimingProtocol | None = None,
    backend: Engine = "sim",
) -> list[Row]:
    """Time every case of the named anchors (leaving out `skip`; only `only` when given) under
    each anchor's timing protocol, or `protocol` for all, on the engine `backend`. A ratio anchor
    always times its base case too."""
    rows = []
    for name in names:
        anchor = ANCHORS[name]
        if protocol is not None:
            anchor = replace(anchor, protocol=protocol)
        pkg = load_package(HERE / anchor.package)
        soc_of = anchor.soc or soc
        wanted = [(c, m) for c, m in anchor.cases if c not in skip and (not only or c in only)]
        if not anchor.base:
            rows += [
                _row(
                    anchor,
                    case,
                    measured,
                    profile_case(pkg, case, soc_of, anchor.protocol, backend),
                )
                for case, measured in wanted
            ]
            continue
        if wanted:
            base = _row(
                anchor,
                anchor.base,
                dict(anchor.cases)[anchor.base],
                profile_case(pkg, anchor.base, soc_of, anchor.protocol, backend),
            )
            for case, measured in wanted:
                r = (
                    base
                    if case == anchor.base
                    else _row(
                        anchor,
                        case,
                        measured,
                        profile_case(pkg, case, soc_of, anchor.protocol, backend),
                    )
                )
                rows.append(
                    replace(
                        r,
                        simulated_ratio=r.simulated_us / base.simulated_us,
                        measured_ratio=measured / base.measured,
                    )
                )
    return rows


def ladder_ok(rows: list[Row], min_step: float = 0.0) -> bool:
    """Within each ladder anchor, simulated values fall in the measured order, for every pair of
    cases whose measured values differ by more than `min_step` (relative; 0: every pair)."""
    for anchor in {r.anchor for r in rows}:
        if ANCHORS[anchor].ladder:
            ours = [r for r in rows if r.anchor == anchor]
            for a in ours:
                for b in ours:
                    if (
                        a.measured > b.measured * (1 + min_step)
                        and not a.simulated_us > b.simulated_us
                    ):
                        return False
    return True
