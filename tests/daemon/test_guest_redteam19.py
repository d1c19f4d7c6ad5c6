"""A nineteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A nineteenth red
team"): the cube's CCE intrinsics (last session's surface: the fixpipe's ND matrices from
set_nd_para, the atomic mode set_atomic_* leaves), the element-wise math APIs' sharedTmpBuffer
under its helper's minimum, and SelectWithBytesMask's isReuseMask (round 18's open item), each
asserting the honest outcome.

Safe if containment fails: every kernel is one fp16 tile on one cube core or level1/add with a few
calls more, under a run timeout of 60 s; kernels run on the session's sim-guest daemon as its
unprivileged user.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve
from tests.guest import test_matmul_l1_inputs as l1_inputs

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import add_calling, checked
from .test_guest_redteam15 import MULTIPLY_BY_KEPT

guest = boundary.guest  # the session's sim-guest daemon

CCE_MATMUL = Path(__file__).parents[1] / "guest" / "packages" / "cce_matmul"


def package_checked(pkg: OperatorPackage, run_id: str, run_s: float = 60) -> EvalRequest:
    """`pkg` with every case checked, no timing."""
    return EvalRequest(
        run_id=run_id,
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=run_s),
    )


def cce_checked(kernel: str, run_id: str) -> EvalRequest:
    return package_checked(load_package(CCE_MATMUL).with_sources(kernel=kernel), run_id)


# ---- the fixpipe's ND matrices: every L0C byte it reads is a read of the race checker -------------
# cce_matmul computing C in two halves of rows, each its own mad into its own part of L0C, and one
# copy_matrix_cc_to_gm with two ND matrices (set_nd_para: ndNum 2, the second H1 x N1 fractals on
# in L0C, H x N elements on in C) writing both. `{flag}` is where the M -> FIX flag is set.
ONE_MAD = (
    "  mad(c0, a2, b2, M, K, N, 0, false, false, true);\n"
    "  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);\n"
    "  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);\n"
    "  set_nd_para(1);\n"
    "  copy_matrix_cc_to_gm((__gm__ float*)c, c0, 0, N, M, N, M, 0, NoQuant, 0, false, true);\n"
)
TWO_HALVES = (
    "  const uint32_t H = M / 2, H1 = M1 / 2;\n"
    "  mad(c0, a2, b2, H, K, N, 0, false, false, true);\n"
    "{early}"
    "  mad(c0 + H1 * N1 * 256, a2 + H1 * K1 * 256, b2, H, K, N, 0, false, false, true);\n"
    "{late}"
    "  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);\n"
    "  set_nd_para(2 | (uint64_t)(H1 * N1) << 16 | (uint64_t)(H * N) << 32);\n"
    "  copy_matrix_cc_to_gm((__gm__ float*)c, c0, 0, N, H, N, H, 0, NoQuant, 0, false, true);\n"
)
SET = "  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);\n"


def two_halves(flag_after_both: bool) -> str:
    kernel = load_package(CCE_MATMUL).files["op_kernel/cce_matmul.cpp"]
    assert ONE_MAD in kernel
    early, late = ("", SET) if flag_after_both else (SET, "")
    return kernel.replace(ONE_MAD, TWO_HALVES.format(early=early, late=late))


def test_a_fixpipe_reading_a_second_nd_matrix_unsynced_is_a_race(guest):
    # The fixpipe's L0C read was recorded as its first matrix's bytes alone (mSize rows of every
    # column block, one after another), while it reads ndNum matrices srcNdStride fractals apart
    # and column blocks srcStride rows apart. On main ee04b1aa a kernel that sets its M -> FIX flag
    # after the first half's mad only, so that the copy out starts while the second half is still
    # computed, got OK (on the device it copies out whatever L0C held); the same kernel with the
    # flag after both mads is the honest one.
    honest = guest.evaluate(cce_checked(two_halves(flag_after_both=True), "fixpipe-nd-honest"))
    assert honest.status is Status.OK, (honest.status, honest.message)
    racy = guest.evaluate(cce_checked(two_halves(flag_after_both=False), "fixpipe-nd-racy"))
    assert racy.status is Status.RACE_DETECTED, (racy.status, racy.message)
    assert "copy_matrix_cc_to_gm" in racy.message or "Fixpipe" in racy.message, racy.message


# ---- the atomic mode without a type ---------------------------------------------------------------
# level1/add whose every block but the last first writes its first tile over the next block's first
# elements (wrong there), then, as every block does, its own; the next block, run after it here,
# writes the right values over them. Two plain writes of different blocks to the same bytes with no
# SyncAll between: a race, whichever lands last on the device.
def add_overwriting_the_next_block(prelude: str) -> str:
    kernel = resolve("level1/add").files["op_kernel/add.cpp"]
    replacements = (
        (
            "    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);\n",
            "    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);\n"
            "    next.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset + blockLength, 16);\n",
        ),
        (
            "    if (len * sizeof(DTYPE_Z) % 32 == 0) {\n      DataCopy(zGm[offset], zLocal, len);\n",
            "    if (offset == 0 && GetBlockIdx() + 1 < GetBlockNum()) DataCopy(next, zLocal, 16);\n"
            "    if (len * sizeof(DTYPE_Z) % 32 == 0) {\n      DataCopy(zGm[offset], zLocal, len);\n",
        ),
        ("  GlobalTensor<DTYPE_Z> zGm;\n", "  GlobalTensor<DTYPE_Z> zGm, next;\n"),
        ("  KernelAdd op;\n", f"{prelude}  KernelAdd op;\n"),
    )
    for old, new in replacements:
        assert old in kernel, old
        kernel = kernel.replace(old, new, 1)
    return kernel


def test_an_atomic_operation_without_a_type_is_no_cover_for_a_race(guest):
    # set_atomic_add() alone sets the operation and not the type the device adds in
    # (set_atomic_f16 ...): the emulation copied such a write as a plain one while the cross-core
    # check took it as atomic, and two atomic writes never race. On main ee04b1aa the kernel below
    # got OK with it and RACE_DETECTED without it: its result was the emulation's block order's.
    plain = guest.evaluate(checked(add_overwriting_the_next_block(""), "atomic-untyped-plain"))
    assert plain.status is Status.RACE_DETECTED, (plain.status, plain.message)
    untyped = guest.evaluate(
        checked(add_overwriting_the_next_block("  set_atomic_add();\n"), "atomic-untyped")
    )
    assert untyped.status is not Status.OK, (untyped.status, untyped.message)
    assert "atomic" in untyped.message, untyped.message


# ---- an element-wise math API's sharedTmpBuffer under its helper's minimum ------------------------
@pytest.mark.parametrize(
    "call",
    [
        # GetSigmoidMaxMinTmpSize of 8 floats: at least 512 bytes (two float repeats).
        pytest.param("Sigmoid<float>(norm[0], norm[128], tmp, 8);", id="Sigmoid"),
        # GetSinMaxMinTmpSize of 8 floats: at least 768 bytes.
        pytest.param("Sin<float>(norm[0], norm[128], tmp, 8);", id="Sin"),
        # GetPowerMaxMinTmpSize of two float tensors: at least 1,280 bytes.
        pytest.param("Power<float>(norm[0], norm[128], norm[64], tmp, 8);", id="Power"),
    ],
)
def test_a_math_apis_buffer_under_the_helpers_minimum_is_refused(guest, call):
    # Round 18 refused SoftMax's buffer under its minimum; the element-wise math APIs, whose
    # helpers the tree has (math_tmp_sizes.h: the minimum one 256-byte repeat a live float buffer),
    # computed whatever the buffer's size. On main ee04b1aa a 32-byte buffer was OK: the UB the
    # device's library works in past it is not the kernel's to give its tiles.
    tiny = "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n    tmp.SetSize(32);\n"
    result = guest.evaluate(checked(add_calling(f"{tiny}    {call}\n"), "math-tmp-min"))
    assert (result.status, "under the minimum" in result.message) == (Status.RUNTIME_ERROR, True), (
        result.status,
        result.message,
    )


# ---- SelectWithBytesMask's isReuseMask ------------------------------------------------------------
# Mask rows wider than the source's are gathered to the source's width first (asc-devkit's A2
# SelectWithBytesMaskImpl): with isReuseMask (the default) into the mask itself, else into the
# sharedTmpBuffer, which then holds that copy too. The flag did not cross to the emulation.
def test_a_select_buffer_keeps_its_tail_past_the_maximum_of_a_reused_mask(guest):
    # GetSelectWithBytesMaskMaxTmpSize of 8 floats, mask rows of 32 bytes, the mask reused: 1,024
    # bytes (1,056 without reuse, which the emulation took whatever the flag). On main ee04b1aa an
    # honest kernel keeping a 1.0 at buffer byte 1,040 (norm[388]) was charged WRONG_ANSWER.
    kernel = add_calling(
        "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[512];\n"
        "    SelectWithBytesMask(norm[0], norm[32], 1.0f, norm[64].ReinterpretCast<uint8_t>(), tmp,"
        " SelectWithBytesMaskShapeInfo{1, 8, 32});\n" + MULTIPLY_BY_KEPT.format(kept=388)
    )
    result = guest.evaluate(checked(kernel, "select-reuse-tail"))
    assert result.status is Status.OK, (result.status, result.message)


def test_a_reused_mask_is_left_as_the_library_leaves_it(guest):
    # Eight mask rows of 32 bytes holding 0, 1, ..., 255, gathered in place to rows of 8: byte 32
    # (row 1's first) then holds row 4's first, 128. On main ee04b1aa the mask was left as it was,
    # so a kernel that goes on using it (here: its sums kept only while byte 32 is still 32) got OK,
    # a result the device does not give.
    kernel = add_calling(
        "    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[1024];\n"
        "    LocalTensor<uint8_t> mask = normBuf.Get<uint8_t>()[512];\n"
        "    for (int32_t i = 0; i < 256; ++i) mask.SetValue(i, static_cast<uint8_t>(i));\n"
        "    SelectWithBytesMask(norm[0], norm[64], 1.0f, mask, tmp, SelectWithBytesMaskShapeInfo{8, 8, 32});\n"
        "    PipeBarrier<PIPE_ALL>();\n"
        "    const float intact = mask.GetValue(32) == 32 ? 1.0f : 0.0f;\n"
        "    Muls(zLocal, zLocal, static_cast<DTYPE_Z>(intact), (len + alignElems - 1) / alignElems"
        " * alignElems);\n"
    )
    result = guest.evaluate(checked(kernel, "select-reuse-mask"))
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)


# ---- a Matmul's L1 buffers over the kernel's own L1 operand ---------------------------------------
# level1/matmul in pieces with A copied by the kernel into an A1 queue's buffer (the TSCM input of
# tests/guest/test_matmul_l1_inputs.py), and a second object, all in GM, that computes the same piece
# into C between the kernel's copy of A and the first object's IterateAll
# (l1_inputs.with_a_second_object).


def test_a_second_matmuls_buffers_leave_the_kernels_l1_operand_alone(guest):
    # On the device each object's L1 buffers come out of the TPipe at its Init, apart from the
    # kernel's own; the emulation laid an object's chunks from L1 address 0 unless the object itself
    # was handed an L1 operand. An honest kernel whose A waits in L1 for the first object while a
    # second one computes got WRONG_ANSWER on main ee04b1aa: the second object's copies of A
    # overwrote the kernel's. Fixed (s26mm): Init takes the object's L1 place from the TPipe.
    pkg = l1_inputs.with_a_second_object()
    result = guest.evaluate(package_checked(pkg, "matmul-l1-operand", run_s=120))
    assert result.status is Status.OK, (result.status, result.message)
