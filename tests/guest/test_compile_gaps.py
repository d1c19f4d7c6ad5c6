"""Compile gaps of the development corpus on the guest engine (issue 50): API forms real operators
use that compiled natively but not for the guest. DataCopy with SliceInfo (eye_fp64), the
launch's parameter block (get_para_base: gcd), the device compiler's branch hints. Each runs with
the native engine's verdict and simulated latency; a forged slice stops the kernel
(RUNTIME_ERROR), never a read or write of the host's memory."""

from __future__ import annotations

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from tests.guest.test_data import add_with
from tests.guest.test_real_gaps import add_edited

# x and z move as two piece rows of half a tile each (dims 2: a row's elements, then the rows),
# where a half tile is whole 32 B blocks; y as before. z = x + y either way.
SLICE = "{{0, h - 1, 0, bl, h}, {0, 1, 0, 1, 2}}"
SLICED = add_edited(
    (
        "      DataCopy(xLocal, xGm[offset], len);\n",
        "      const uint32_t h = len / 2, bl = h * sizeof(DTYPE_X) / 32;\n"
        "      if (h * sizeof(DTYPE_X) % 32 == 0 && unlikely(bl > 0)) {\n"
        f"        SliceInfo gs[] = {SLICE}, us[] = {SLICE};\n"
        "        DataCopy(xLocal, xGm[offset], us, gs, 2);\n"
        "      } else {\n"
        "        DataCopy(xLocal, xGm[offset], len);\n"
        "      }\n",
    ),
    (
        "      DataCopy(zGm[offset], zLocal, len);\n",
        "      const uint32_t h = len / 2, bl = h * sizeof(DTYPE_Z) / 32;\n"
        "      if (likely(h * sizeof(DTYPE_Z) % 32 == 0 && bl > 0)) {\n"
        f"        SliceInfo gs[] = {SLICE}, us[] = {SLICE};\n"
        "        DataCopy(zGm[offset], zLocal, gs, us, 2);\n"
        "      } else {\n"
        "        DataCopy(zGm[offset], zLocal, len);\n"
        "      }\n",
    ),
)


def test_slice_copies_and_branch_hints_match_the_native_engine(engines):
    engines.same(add_with(SLICED))


def forged(body: str, engines) -> str:
    entry = "  GET_TILING_DATA(tilingData, tiling);\n"
    setup = (
        "  TPipe p;\n  TBuf<QuePosition::VECCALC> b;\n  p.InitBuffer(b, 1024);\n"
        "  LocalTensor<float> t = b.Get<float>();\n"
        "  GlobalTensor<float> g;\n  g.SetGlobalBuffer((__gm__ float*)x, 64);\n"
    )
    request = EvalRequest(
        run_id="forged",
        package=add_with(add_edited((entry, entry + setup + body))),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    result = engines.guest.evaluate(request)
    assert result.status is Status.RUNTIME_ERROR, result.message
    return result.message


@pytest.mark.parametrize(
    "slices, why",
    [
        # rows far past the local buffer (the emulation checks only the whole UB, in 32 bits)
        ("{{0, 7, 0, 1, 8}, {0, 1, 0x7fffffff, 1, 2}}", "overflows 32 bits"),
        ("{{0, 7, 0, 1, 8}, {0, 1000, 0, 1, 1001}}", "buffer"),
        # a stride whose 32-bit sum wraps to a zero divisor
        ("{{0, 7, 0xfffffff8, 1, 8}, {0, 0, 0, 1, 1}}", "overflows 32 bits"),
        ("{{0, 7, 0, 1, 8}, {0, 0, 0xffffffff, 1, 1}}", "overflows 32 bits"),
    ],
)
def test_forged_slices_stop_the_kernel(engines, slices, why):
    body = f"  SliceInfo s[] = {slices};\n  DataCopy(t, g, s, s, 2);\n"
    message = forged(body, engines)
    assert why in message, message


def test_a_slice_past_its_gm_buffer_stops_the_kernel(engines):
    # GM rows 2^20 elements apart: the second lies in no buffer the tensor names
    body = (
        "  SliceInfo u[] = {{0, 7, 0, 1, 8}, {0, 1, 0, 1, 2}};\n"
        "  SliceInfo s[] = {{0, 7, 0, 1, 1u << 20}, {0, 1, 0, 1, 2}};\n"
        "  DataCopy(t, g, u, s, 2);\n"
    )
    assert "GM" in forged(body, engines)
