"""`suite validate --draws N`: an operator must pass its cases on N input draws, so an answer
right only for one draw (or a spec tighter than the kernel's own error) fails before a bench."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym import suite_validate as validate
from npu_daemon import checker
from tests.test_cli_errors import assert_usage_error, cli

SQUARE = Path(__file__).parents[1] / "sim" / "packages" / "square_scalar"
LOOP = "  for (uint32_t i = 0; i < blockLength; ++i) {\n"


def test_a_kernel_right_only_on_the_first_draw_fails_the_draw_that_exposes_it():
    pkg = load_package(SQUARE)
    aligned = pkg.spec.case("aligned")
    signs = [checker.make_inputs(pkg, aligned, s)["x"].ravel()[0] > 0 for s in range(32)]
    exposing = next(s for s in range(1, 32) if signs[s] != signs[0])
    # Every core returns early, its output unwritten, unless x[0] has seed 0's sign.
    guard = (
        "  GlobalTensor<DTYPE_X> first;\n"
        "  first.SetGlobalBuffer((__gm__ DTYPE_X*)x, 1);\n"
        f"  if (t.totalLength == 4096 && !(static_cast<float>(first.GetValue(0)) "
        f"{'>' if signs[0] else '<='} 0)) return;\n"
    )
    kernel = "op_kernel/square_scalar.cpp"
    assert LOOP in pkg.files[kernel]
    files = {**pkg.files, kernel: pkg.files[kernel].replace(LOOP, guard + LOOP)}
    guarded = pkg.model_copy(update={"files": files})

    held = validate.evaluate(guarded, DEFAULT_SOC, draws=exposing)
    assert held.ok and held.latency_us, held.message  # the draws before it agree with seed 0
    failed = validate.evaluate(guarded, DEFAULT_SOC, draws=exposing + 1)
    assert failed.status == "WRONG_ANSWER" and failed.failed_cases == ["aligned"]
    assert failed.message.startswith(
        f"input draw {exposing + 1} of {exposing + 1} (seed {exposing})"
    )
    assert failed.latency_us == held.latency_us  # the first draw's timing is kept
    assert validate.evaluate(pkg, DEFAULT_SOC, draws=exposing + 1).ok


def test_draws_below_one_are_a_usage_error():
    assert_usage_error(
        cli("suite", "validate", "--ops", "level1/add", "--draws", "0"),
        "--draws must be at least 1",
    )
