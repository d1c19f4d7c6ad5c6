"""A twentieth red team of the guest engine (issue 50, docs/trust_boundary.md, "A twentieth red
team"): where a move may put its bytes. The API's DataCopy between GM and a local tensor, a vector
instruction and the scalar unit's element access reached buffers the device's instruction cannot:
a GM copy straight into L0A, one running past L1's end into L0A, the vector unit's work on a cube
core (the AIC has no UB), and L0C read or changed past the fixpipe through a UB tensor that TPipe
placed past the UB.

Safe if containment fails: every kernel is one fp16 tile on one cube core or level1/add with a
line changed, under a run timeout of 60 s; kernels run on the session's sim-guest daemon as its
unprivileged user.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve

from . import test_guest_boundary as boundary

guest = boundary.guest  # the session's sim-guest daemon

CCE_MATMUL = Path(__file__).parents[1] / "guest" / "packages" / "cce_matmul"


def timed(pkg: OperatorPackage, run_id: str) -> EvalRequest:
    """`pkg` with every case checked and its bench case timed."""
    return EvalRequest(
        run_id=run_id,
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        timeouts=Timeouts(build_s=300, run_s=60),
    )


def cce_matmul_with(old: str, new: str) -> OperatorPackage:
    """packages/cce_matmul with `old`, found once in its kernel, replaced by `new`."""
    pkg = load_package(CCE_MATMUL)
    kernel = pkg.kernel_source
    assert kernel.count(old) == 1, old
    return pkg.with_sources(kernel=kernel.replace(old, new))


# ---- a GM copy straight into L0A ------------------------------------------------------------------
# cce_matmul's A through the API's DataCopy from GM into an A2 tensor, one copy a fractal (16 rows of
# 32 B, K1 - 1 blocks apart in GM, one after another in L0A: the zZ layout Mmad reads), instead of
# the nd2nz copy into L1 and the LoadData (MTE1) of each fractal row to L0A.
A_THROUGH_L1 = (
    "  copy_gm_to_cbuf_multi_nd2nz_b16(a1, (__gm__ half*)a, 0, 1, M, K, 0, K, M, 1, 0);\n",
    "  for (uint32_t i = 0; i < M1; ++i) load_cbuf_to_ca(a2 + i * K1 * 256, a1 + i * 256, 0, K1, M1,"
    " 0, 0, false, inc);\n",
)
A_STRAIGHT_TO_L0A = (
    "  LocalTensor<half> l0a(TPosition::A2, 0, M * K);\n"
    "  GlobalTensor<half> ga;\n"
    "  ga.SetGlobalBuffer((__gm__ half*)a);\n"
    "  for (uint32_t i = 0; i < M1; ++i)\n"
    "    for (uint32_t k = 0; k < K1; ++k)\n"
    "      DataCopy(l0a[(i * K1 + k) * 256], ga[i * 16 * K + k * 16], DataCopyParams(16, 1, K1 - 1, 0));\n"
)


def a_straight_to_l0a() -> OperatorPackage:
    pkg = cce_matmul_with(A_THROUGH_L1[0], A_STRAIGHT_TO_L0A)
    kernel = pkg.kernel_source
    assert kernel.count(A_THROUGH_L1[1]) == 1
    return pkg.with_sources(kernel=kernel.replace(A_THROUGH_L1[1], ""))


def test_a_gm_copy_reaches_no_buffer_but_the_ub_and_l1(guest):
    # The device's DataCopy from GM moves into the UB or L1 alone (asc-devkit's
    # kernel_operator_data_copy_intf_impl.h: any other destination position is refused and
    # nothing moves); the emulation took any local address the copy's tensor had.
    honest = guest.evaluate(timed(load_package(CCE_MATMUL), "l0a-honest"))
    assert honest.status is Status.OK, (honest.status, honest.message)
    direct = guest.evaluate(timed(a_straight_to_l0a(), "l0a-direct"))
    assert direct.status is Status.RUNTIME_ERROR, (direct.status, direct.latency_us, direct.message)
    assert "L0A" in direct.message, direct.message


# ---- a GM copy past L1's end ---------------------------------------------------------------------
# Before its own work, cce_matmul copies A's first 272 elements into a 16-element A1 tensor at L1's
# last 32 bytes: the count form, whose length the device compares with nothing, runs 512 bytes on.
PAST_L1 = (
    "  LocalTensor<half> tail(TPosition::A1, 512 * 1024 - 32, 16);\n"
    "  GlobalTensor<half> head;\n"
    "  head.SetGlobalBuffer((__gm__ half*)a);\n"
    "  DataCopy(tail, head, 16 + 256);\n"
)


def test_a_gm_copy_stays_inside_the_buffer_it_starts_in(guest):
    # L1's addresses end at its 512 KiB; the emulation's local space goes on into L0A, and a DMA was
    # held only to that space's end.
    result = guest.evaluate(
        timed(cce_matmul_with(A_THROUGH_L1[0], PAST_L1 + A_THROUGH_L1[0]), "past-l1")
    )
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
    assert "L1" in result.message, result.message


# ---- vector work on a cube core -------------------------------------------------------------------
def test_a_cube_core_has_no_vector_unit(guest):
    # level1/add declared an AIC-only kernel: its UB copies and its Add run on cube cores, which
    # on the device have neither a UB nor a vector unit (the cube compile refuses vector
    # instructions).
    kernel = resolve("level1/add").files["op_kernel/add.cpp"]
    entry = "  GET_TILING_DATA(tilingData, tiling);\n"
    assert kernel.count(entry) == 1
    aic = kernel.replace(entry, "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n" + entry)
    result = guest.evaluate(timed(resolve("level1/add").with_sources(kernel=aic), "aic-vector"))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.latency_us, result.message)
    assert "AIC" in result.message, result.message


# ---- L0C through a UB tensor laid over it ---------------------------------------------------------
# TPipe hands out UB addresses past the UB (the device fails only when one is touched), and on a
# cube core the emulation's local space goes on there into L1 and L0: a VECCALC buffer of 851,968
# bytes (the UB, L1, L0A and L0B) and C's, whose tail is cce_matmul's L0C. Through it the kernel
# takes C out of L0C without the fixpipe, or works on it with the vector unit the AIC lacks.
FIXPIPE_OUT = (
    "  set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);\n"
    "  wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);\n"
    "  set_nd_para(1);\n"
    "  copy_matrix_cc_to_gm((__gm__ float*)c, c0, 0, N, M, N, M, 0, NoQuant, 0, false, true);\n"
)
OVER_L0C = (
    "  PipeBarrier<PIPE_ALL>();\n"
    "  TPipe pipe;\n"
    "  TBuf<TPosition::VECCALC> over;\n"
    "  pipe.InitBuffer(over, 851968 + M * N * 4);\n"
    "  LocalTensor<float> cc = over.Get<float>()[851968 / 4];\n"
    "  GlobalTensor<float> gc;\n"
    "  gc.SetGlobalBuffer((__gm__ float*)c);\n"
)
C_OUT_OF_L0C = {
    # MTE3 from L0C to GM: column block j of C is M rows of 64 B, the rows N x 4 bytes apart in GM.
    "dma": "  for (uint32_t j = 0; j < N1; ++j)\n"
    "    DataCopy(gc[j * 16], cc[j * M * 16], DataCopyParams(M, 2, 0, N / 8 - 2));\n",
    # the scalar unit, element by element
    "scalar": "  for (uint32_t m = 0; m < M; ++m)\n"
    "    for (uint32_t n = 0; n < N; ++n)\n"
    "      gc.SetValue(m * N + n, cc.GetValue(((n / 16) * M + m) * 16 + n % 16));\n",
    # the vector unit on L0C, then the fixpipe as before
    "vector": "  Muls(cc, cc, 1.0f, M * N);\n  PipeBarrier<PIPE_ALL>();\n" + FIXPIPE_OUT,
}


@pytest.mark.parametrize("route", sorted(C_OUT_OF_L0C))
def test_l0c_is_the_fixpipes_to_read(guest, route):
    # On the device a UB tensor's address past the UB names no memory, and a cube core's
    # instructions reach its L0C through the fixpipe alone (its compile has no vector unit and its
    # scalar unit no local memory).
    pkg = cce_matmul_with(FIXPIPE_OUT, OVER_L0C + C_OUT_OF_L0C[route])
    result = guest.evaluate(timed(pkg, f"l0c-{route}"))
    assert result.status is Status.RUNTIME_ERROR, (result.status, result.latency_us, result.message)
    assert "AIC" in result.message or "L0C" in result.message, result.message
