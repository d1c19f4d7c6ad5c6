"""Load3D's register form on both engines (asc-devkit: SetFmatrix, SetLoadDataPaddingValue,
SetLoadDataRepeat, SetLoadDataBoundary, LoadData 3D v2 with IsResetLoad3dConfig{false, false}):
level2/conv2d with its feature map description and pad value set once in the registers (the right
FMATRIX register, fMatrixCtrl) and garbage in the instruction's own fields gives the suite's result
at the native engine's latency; a load that reads a register never set, more repeats than one or a
boundary the feature map passes stop the kernel."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve

REGISTERS = """  const uint8_t pads[4] = {static_cast<uint8_t>(t.pad), static_cast<uint8_t>(t.pad),
                           static_cast<uint8_t>(t.pad), static_cast<uint8_t>(t.pad)};
  SetFmatrix(H, W, pads, FmatrixMode::FMATRIX_RIGHT);
  SetLoadDataPaddingValue(half(0));
  SetLoadDataRepeat({0, 1, 0});
  SetLoadDataBoundary(0);
"""
# The instruction's own description, which the register form ignores: wrong on purpose.
OWN_FIELDS = """        ld.padList[0] = ld.padList[1] = ld.padList[2] = ld.padList[3] = static_cast<uint8_t>(t.pad);
        ld.l1H = H, ld.l1W = W, ld.channelSize = C;
"""
IGNORED = """        ld.padList[0] = ld.padList[1] = ld.padList[2] = ld.padList[3] = 7;
        ld.l1H = 1, ld.l1W = 2, ld.channelSize = C, ld.padValue = half(5), ld.fMatrixCtrl = true;
"""
ANCHOR = "  int64_t image = -1;\n"


def register_form(registers: str = REGISTERS) -> OperatorPackage:
    pkg = resolve("level2/conv2d")
    kernel = pkg.files[pkg.kernel_path]
    for old in (OWN_FIELDS, ANCHOR, "        LoadData(a2, X, ld);\n", 'extern "C"'):
        assert kernel.count(old) == 1, old
    kernel = (
        kernel.replace(OWN_FIELDS, IGNORED)
        .replace(ANCHOR, registers + ANCHOR)
        .replace("        LoadData(a2, X, ld);\n", "        LoadData<half, KEEP>(a2, X, ld);\n")
        .replace(
            'extern "C"', 'static constexpr IsResetLoad3dConfig KEEP = {false, false};\nextern "C"'
        )
    )
    return pkg.with_sources(kernel=kernel)


def test_the_register_form_matches_the_native_engine_and_the_suite(engines):
    guest = engines.same(register_form())
    assert guest.cases and all(c.passed for c in guest.cases)


@pytest.mark.parametrize(
    "registers,words",
    [
        # FMATRIX_RIGHT never set (the left one is): the load reads l1H = l1W = 0.
        (REGISTERS.replace("FMATRIX_RIGHT", "FMATRIX_LEFT"), "FMATRIX register"),
        (
            REGISTERS.replace("SetLoadDataRepeat({0, 1, 0})", "SetLoadDataRepeat({0, 2, 0})"),
            "repeatTime 2",
        ),
        (
            REGISTERS.replace("SetLoadDataBoundary(0)", "SetLoadDataBoundary(1024)"),
            "SetLoadDataBoundary",
        ),
    ],
    ids=["fmatrix_unset", "repeats", "boundary"],
)
def test_a_load_past_what_the_registers_allow_stops_the_kernel(engines, registers, words):
    request = EvalRequest(
        run_id="load3d-registers",
        package=register_form(registers),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    for result in (engines.native.evaluate(request), engines.guest.evaluate(request)):
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert words in result.message


@pytest.mark.parametrize(
    "forged,words",
    [
        ("ld.strideW = 0, ld.strideH = static_cast<uint8_t>(t.stride);", "strideW/H 0/"),
        # A filter wider than the feature map and its pads: no output position to divide by.
        (
            "ld.strideW = ld.strideH = static_cast<uint8_t>(t.stride), ld.dilationFilterW = 255;",
            "no output position",
        ),
    ],
    ids=["zero_stride", "no_output_position"],
)
def test_a_load_the_emulation_would_divide_by_zero_on_stops_the_kernel(engines, forged, words):
    # A forged strideW of 0 divided by zero in the emulation (SIGFPE in the harness, found by the
    # tenth red team): now the load's documented ranges and its output width are checked first.
    pkg = register_form()
    stride = "ld.strideW = ld.strideH = static_cast<uint8_t>(t.stride);"
    kernel = pkg.files[pkg.kernel_path]
    assert kernel.count(stride) == 1
    request = EvalRequest(
        run_id="load3d-divisors",
        package=pkg.with_sources(kernel=kernel.replace(stride, forged)),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    for result in (engines.native.evaluate(request), engines.guest.evaluate(request)):
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert words in result.message and "crashed" not in result.message
