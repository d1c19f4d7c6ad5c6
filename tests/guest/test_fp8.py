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


def test_fp8_scalars_convert_through_the_api_imports(engines):
    # Element 0 through the scalar types (fp8_from_float / fp8_to_float, imports of the API),
    # the same roundings as the Casts: the outputs do not move, and the module is not refused.
    pkg = load_package(FP8_CAST)
    kernel = pkg.files["op_kernel/fp8_cast.cpp"]
    last = "  PipeBarrier<PIPE_ALL>();\n  DataCopy(yg, ly, n);\n"
    scalar = (
        "  PipeBarrier<PIPE_ALL>();\n  ly.SetValue(0, F(lx.GetValue(0)));\n"
        "  lz.SetValue(0, static_cast<float>(lq.GetValue(0)));\n"
    )
    assert last in kernel
    guest = engines.same(pkg.with_sources(kernel=kernel.replace(last, scalar + last)))
    assert all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)
