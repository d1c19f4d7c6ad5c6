"""HF32 (the Matmul's SetHF32; the basic API's SetHF32Mode / SetHF32TransMode) on both engines:
packages/cube_hf32 rounds fp32 A and B to HF32 before the Mmads, bit-exactly as its reference, at one
simulated latency on both engines; the rounding mode decides the halfway cases; an HF32 Mmad is
charged at twice the fp32 step rate."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts

CUBE_HF32 = Path(__file__).parent / "packages" / "cube_hf32"
SET_HF32 = "  mm.SetHF32(t.hf32 != 0, t.transMode);\n"


def kernel_with(pkg: OperatorPackage, new: str) -> OperatorPackage:
    kernel = pkg.files["op_kernel/cube_hf32.cpp"]
    assert SET_HF32 in kernel
    return pkg.with_sources(kernel=kernel.replace(SET_HF32, new))


def test_hf32_matches_the_native_engine_and_the_reference(engines):
    guest = engines.same(load_package(CUBE_HF32))
    assert {c.name for c in guest.cases} == {
        "random_hf32",
        "random_fp32",
        "ties_to_even",
        "ties_away",
    }
    assert all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)


def test_the_rounding_mode_decides_the_ties(engines):
    # Ties to even everywhere: the ties_away case is a wrong answer on both engines.
    pkg = kernel_with(load_package(CUBE_HF32), "  mm.SetHF32(t.hf32 != 0, 0);\n")
    for result in engines.both(pkg):
        assert result.status is Status.WRONG_ANSWER
        assert [c.name for c in result.cases if not c.passed] == ["ties_away"]


def timed_on(pkg: OperatorPackage, bench: str) -> OperatorPackage:
    cases = [c.model_copy(update={"bench": c.name == bench}) for c in pkg.spec.cases]
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases})})


def test_an_hf32_mmad_is_charged_at_twice_the_fp32_rate(engines):
    def profile(case: str) -> tuple[float, float]:
        request = EvalRequest(
            run_id="hf32-cost",
            package=timed_on(load_package(CUBE_HF32), case),
            stages=[Stage.COMPILE, Stage.TIME],
            timeouts=Timeouts(build_s=300, run_s=120),
        )
        result = engines.guest.evaluate(request)
        assert result.status is Status.OK, result.message
        return result.latency_us, result.profile.model_extra["aic_mac_time_us"]

    # One kernel and shape: the random_fp32 case has SetHF32(false), random_hf32 SetHF32(true).
    fp32_us, fp32_mac = profile("random_fp32")
    hf32_us, hf32_mac = profile("random_hf32")
    # Half the cycles per fractal step (each Mmad's start cost stays): the cube's MAC time drops
    # by at least a quarter, and the launch is no slower.
    assert 0 < hf32_mac < 0.75 * fp32_mac
    assert hf32_us <= fp32_us
