"""Issue 52's kernel gaps on both engines: the cross-core CCE intrinsics (ffts_cross_core_sync with
its FFTS message, wait_flag_dev), the VA registers of the scatter transpose (set_va_reg_sb,
scatter_vnchwconv_b16) and ReduceSum's count form with isSetMask = false (issue 51). Each rewrites a
suite kernel to the other form and must give the native engine's verdict and simulated latency;
forged registers, messages and lone waits stop the kernel."""

from __future__ import annotations

import pytest

from ascend_core.suite import resolve

from .test_compare_reduce import RELU_INIT, RELU_STEP, relu_with, stops_the_guest

# SyncAll of vector cores as the A2 library issues it: a mode-0 set of SYNC_AIV_ONLY_ALL on MTE3
# (every AIV's counter counts once all have set), then the wait.
MSE_FFTS = (
    "    ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(0x0, SYNC_AIV_ONLY_ALL));\n"
    "    wait_flag_dev(SYNC_AIV_ONLY_ALL);\n"
)
MSE_REDUCE = "    ReduceSum(stat, diff, workBuf.Get<float>(), len);\n"
# The count form with the lanes from the mask registers in counter mode; `count` 1 is ignored.
MSE_REDUCE_MASKED = """    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, len);
    ReduceSum<float, false>(stat, diff, workBuf.Get<float>(), 1);
    SetMaskNorm();
    ResetMask();
"""


def mse_with(*pairs: tuple[str, str]) -> str:
    text = resolve("level2/mse_loss").files["op_kernel/mse_loss.cpp"]
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_reduce_sum_under_the_register_mask_matches_the_native_engine(engines):
    kernel = mse_with((MSE_REDUCE, MSE_REDUCE_MASKED))
    guest = engines.same(resolve("level2/mse_loss").with_sources(kernel=kernel))
    assert guest.cases and all(c.passed for c in guest.cases)


def test_the_ffts_barrier_matches_the_native_engine(engines):
    # relu's cores meet at the barrier once, at the end of Init (mse_loss's, where GM crosses it,
    # is the test below).
    kernel = relu_with(RELU_STEP).replace(RELU_INIT, RELU_INIT + MSE_FFTS, 1)
    guest = engines.same(resolve("level1/relu").with_sources(kernel=kernel))
    assert guest.cases and all(c.passed for c in guest.cases)


# relu's result transposed as 16 x 16 16-bit units into x through the VA registers (VA4/VA5 the
# destinations, VA6/VA7 the sources) and back into y through TransDataTo5HD's address lists: y is
# relu(x) only if the register form transposed, from the addresses the registers hold.
VA_ROUND_TRIP = """    const uint32_t n = (len + alignElems - 1) / alignElems * alignElems;
    Relu(yLocal, xLocal, n);
    if (n * sizeof(DTYPE_X) >= 512) {
      __ubuf__ uint16_t* y = (__ubuf__ uint16_t*)yLocal.GetPhyAddr();
      __ubuf__ uint16_t* x = (__ubuf__ uint16_t*)xLocal.GetPhyAddr();
      uint64_t ys[16], xs[16];
      for (int i = 0; i < 16; ++i) ys[i] = (uint64_t)(y + i * 16), xs[i] = (uint64_t)(x + i * 16);
      set_va_reg_sb(VA4, xs);
      set_va_reg_sb(VA5, xs + 8);
      set_va_reg_sb(VA6, ys);
      set_va_reg_sb(VA7, ys + 8);
      scatter_vnchwconv_b16(VA4, VA6, 1, 0, 0);
      TransDataTo5HD<uint16_t>(ys, xs, TransDataTo5HDParams{false, false, 1, 0, 0});
    }
"""


def test_the_va_register_transpose_matches_the_native_engine(engines):
    guest = engines.same(resolve("level1/relu").with_sources(kernel=relu_with(VA_ROUND_TRIP)))
    assert guest.cases and all(c.passed for c in guest.cases)


FORGED = {
    # A register entry past the UB: the host resolves the registers when the transpose reads them.
    "va_entry_past_the_ub": (
        VA_ROUND_TRIP.replace("ys[i] = (uint64_t)(y + i * 16)", "ys[i] = (uint64_t)1 << 24"),
        "past the",
    ),
    # VA7 has no register after it for the other eight addresses.
    "va_pair_past_va7": (
        VA_ROUND_TRIP.replace("scatter_vnchwconv_b16(VA4, VA6", "scatter_vnchwconv_b16(VA7, VA6"),
        "VA register 7 has no VA8 after it",
    ),
    "ffts_message_without_bit_0": (
        "    ffts_cross_core_sync(PIPE_MTE3, 3 << 8);\n",
        "is no FFTS message",
    ),
    # The guest's wait_flag_dev is the import of CrossCoreWaitFlag, whose name the deadlock gives.
    "wait_flag_dev_without_a_set": (
        "    wait_flag_dev(9);\n",
        "CrossCoreWaitFlag(9)",
    ),
}


@pytest.mark.parametrize("name", sorted(FORGED))
def test_a_forged_register_message_or_lone_wait_stops_the_kernel(engines, name):
    stops_the_guest(engines, *FORGED[name])


def test_the_ffts_barrier_orders_gm_between_blocks_as_sync_all(engines):
    # mse_loss's blocks write their partial sums, meet, and block 0 reads them all: its SyncAll
    # written as the library's mode-0 set and wait orders the same GM on both engines.
    kernel = mse_with(("    SyncAll();\n", MSE_FFTS))
    guest = engines.same(resolve("level2/mse_loss").with_sources(kernel=kernel))
    assert guest.cases and all(c.passed for c in guest.cases)


# relu's result transposed 16 x 16 into x by the intrinsic, then back into y by the API's Transpose:
# y is relu(x) only if vtranspose transposed. Between them the Mmad-direction bit of CTRL is set
# (no vector result depends on it), an in-place Copy takes CopyRepeatParams' constructor, and
# vor ors y's first 256 B with themselves.
VTRANSPOSE_ROUND_TRIP = """    const uint32_t n = (len + alignElems - 1) / alignElems * alignElems;
    Relu(yLocal, xLocal, n);
    if (n * sizeof(DTYPE_X) >= 512) {
      vtranspose((__ubuf__ uint16_t*)xLocal.GetPhyAddr(), (__ubuf__ uint16_t*)yLocal.GetPhyAddr());
      set_ctrl(sbitset1(get_ctrl(), 51));
      Transpose(yLocal.ReinterpretCast<uint16_t>(), xLocal.ReinterpretCast<uint16_t>());
      Copy(yLocal, yLocal, (uint64_t)(256 / sizeof(DTYPE_X)), 1, CopyRepeatParams(1, 1, 8, 8));
      __ubuf__ int16_t* y16 = (__ubuf__ int16_t*)yLocal.GetPhyAddr();
      vor(y16, y16, y16, 1, 1, 1, 1, 8, 8, 8);
    }
"""


def test_vtranspose_and_the_ctrl_register_match_the_native_engine(engines):
    guest = engines.same(
        resolve("level1/relu").with_sources(kernel=relu_with(VTRANSPOSE_ROUND_TRIP))
    )
    assert guest.cases and all(c.passed for c in guest.cases)


# relu's result written only if SetMMLayoutTransform set CTRL's Mmad-direction bit 51 and cleared it
# again (ops-nn batch_mat_mul_v3 sets it before its Matmul), and its newer names SetMMRowMajor /
# SetMMColumnMajor did the same; anything else gives y = 1.
MM_LAYOUT = """    const uint32_t n = (len + alignElems - 1) / alignElems * alignElems;
    SetMMLayoutTransform(true);
    const bool nFirst = ((get_ctrl() >> 51) & 1) == 1;
    SetMMLayoutTransform(false);
    const bool mFirst = ((get_ctrl() >> 51) & 1) == 0;
    SetMMRowMajor();
    const bool rowMajor = ((get_ctrl() >> 51) & 1) == 1;
    SetMMColumnMajor();
    const bool columnMajor = ((get_ctrl() >> 51) & 1) == 0;
    if (nFirst && mFirst && rowMajor && columnMajor)
      Relu(yLocal, xLocal, n);
    else
      Duplicate(yLocal, static_cast<DTYPE_Y>(1), n);
"""


def test_set_mm_layout_transform_is_ctrl_bit_51_on_both_engines(engines):
    guest = engines.same(resolve("level1/relu").with_sources(kernel=relu_with(MM_LAYOUT)))
    assert guest.cases and all(c.passed for c in guest.cases)


FORGED_S18 = {
    # A source whose 256 halves run past the UB: the host holds the address to the UB's end.
    "vtranspose_past_the_ub": (
        "    vtranspose((__ubuf__ uint16_t*)xLocal.GetPhyAddr(), "
        "(__ubuf__ uint16_t*)xLocal.GetPhyAddr() + (196608 - 256) / 2);\n",
        "Transpose",
    ),
    # src1 at the UB's size past x: an address the host finds in no UB.
    "vor_past_the_ub": (
        "    vor((__ubuf__ int16_t*)xLocal.GetPhyAddr(), (__ubuf__ int16_t*)xLocal.GetPhyAddr(), "
        "(__ubuf__ int16_t*)xLocal.GetPhyAddr() + 196608 / 2, 1, 1, 1, 1, 8, 8, 8);\n",
        "is not in the UB",
    ),
    # CTRL[48], the overflow mode: a bit the host does not emulate, refused by name.
    "ctrl_bit_48": ("    set_ctrl(sbitset1(get_ctrl(), 48));\n", "CTRL bit 48 is not emulated"),
    # A cube mode register past the three the import serves, and a value other than 0 or 1.
    "mode_register_3": (
        "    ascendc_guest::cube_set_mode(3, 1);\n",
        "register or value out of range",
    ),
    "mode_value_2": ("    ascendc_guest::cube_set_mode(2, 2);\n", "register or value out of range"),
}


@pytest.mark.parametrize("name", sorted(FORGED_S18))
def test_a_forged_transpose_or_ctrl_value_stops_the_kernel(engines, name):
    stops_the_guest(engines, *FORGED_S18[name])
