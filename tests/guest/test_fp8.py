"""Ascend 950's one-byte floats on both engines: packages/fp8_cast copies float and
fp8 / HiFloat8 tensors between GM and UB, casts float -> fp8 (CAST_RINT; HiFloat8 CAST_ROUND) and
fp8 -> float, and gets the native engine's verdict and simulated latency; the daemon's checker
holds both to the libraries' rounding exactly, overflow to NaN / inf included."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import load_package

# Not among tests/sim/packages: those are pinned by benchmarks/sim_results.golden.json.
FP8_CAST = Path(__file__).parent / "packages" / "fp8_cast"


def test_fp8_copies_and_casts_match_the_native_engine_and_the_libraries(engines):
    guest = engines.same(load_package(FP8_CAST))
    assert [c.name for c in guest.cases] == ["float8_e4m3fn", "float8_e5m2", "hifloat8"]
    assert all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)
