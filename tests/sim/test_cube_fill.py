"""The cube API's Fill / InitConstValue on the native engine (tests/guest/test_cube_fill.py holds
both engines to one another): float fills of L1 and L0B decide a product, and the documented
conditions (position, alignment, ranges, the AIC) are errors naming the kernel's line."""

from __future__ import annotations

import numpy as np
import pytest

AIC = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n"

# A 16 x 16 x 16 float product of constants: A filled in L1 (1.5) and loaded to L0A, B filled in
# L0B (FILL_B), so C = 1.5 * FILL_B * 16 whatever the fractal layouts.
CONSTANTS = """
TPipe pipe;
TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
pipe.InitBuffer(l1, 1024); pipe.InitBuffer(l0a, 1024); pipe.InitBuffer(l0b, 1024); pipe.InitBuffer(l0c, 1024);
LocalTensor<float> a1 = l1.Get<float>(), a2 = l0a.Get<float>(), b2 = l0b.Get<float>(), co = l0c.Get<float>();
Fill(a1, {1, 32, 0, 1.5f});
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LoadData(a2, a1, LoadData2DParams(0, 2, 1, 0, 0, false, 0));
InitConstValue(b2, InitConstValueParams<float>(2, 1, 0, FILL_B));
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
Mmad(co, a2, b2, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
GlobalTensor<float> gc; gc.SetGlobalBuffer((__gm__ float*)c);
Fixpipe(gc, co, FixpipeParamsV220(16, 16, 16, 16, false));
"""


def test_float_fills_of_l1_and_l0b_decide_the_product(kernel):
    run = kernel(
        AIC + CONSTANTS.replace("FILL_B", "0.25f"),
        {"x": np.zeros(16, np.float32)},
        {"c": ("float32", (16, 16))},
    ).ok()
    np.testing.assert_array_equal(run.outputs["c"], np.full((16, 16), 1.5 * 0.25 * 16, np.float32))


@pytest.mark.parametrize(
    "body,words",
    [
        (
            "TPipe pipe; TBuf<TPosition::VECCALC> ub; pipe.InitBuffer(ub, 1024);\n"
            "Fill(ub.Get<half>(), {1, 1, 0, half(0)});",
            "dst must be in L1 (A1 / B1), L0A (A2) or L0B (B2) but is in UB",
        ),
        (
            "TPipe pipe; TBuf<TPosition::A2> l0a; pipe.InitBuffer(l0a, 2048);\n"
            "Fill(l0a.Get<half>()[16], {1, 1, 0, half(0)});",
            "not 512 B aligned",
        ),
        (
            "TPipe pipe; TBuf<TPosition::B1> l1; pipe.InitBuffer(l1, 2048);\n"
            "InitConstValue(l1.Get<int16_t>(), {40000, 1, 0, int16_t(0)});",
            "each must be in [0, 32767]",
        ),
        (
            "TPipe pipe; TBuf<TPosition::B1> l1; pipe.InitBuffer(l1, 2048);\n"
            "Fill(l1.Get<uint16_t>(), {2, 32, 1, uint16_t(7)});",
            "exceeds the tensor",
        ),
    ],
)
def test_documented_conditions_are_errors(kernel, body, words):
    run = kernel(AIC + body, {"x": np.zeros(16, np.float32)}, {"c": ("float32", (16,))})
    assert run.status == "RUNTIME_ERROR"
    assert words in run.message and "simk.cpp:" in run.message, run.message


def test_a_fill_on_a_vector_core_is_an_error(kernel):
    body = (
        "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n"
        "TPipe pipe; TBuf<TPosition::A1> l1; pipe.InitBuffer(l1, 1024);\nFill(l1.Get<float>(), {1, 1, 0, 0.0f});"
    )
    run = kernel(body, {"x": np.zeros(16, np.float32)}, {"c": ("float32", (16,))})
    assert run.status == "RUNTIME_ERROR"
    assert "on a vector core (AIV)" in run.message, run.message
