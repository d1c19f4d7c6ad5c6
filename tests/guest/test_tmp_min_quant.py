"""AscendQuant, AscendDequant and AscendAntiQuant hold their sharedTmpBuffer to their host helpers'
minimum on both engines (math_tmp_sizes.h, the numbers GetAscendQuantMaxMinTmpSize,
GetAscendDequantMaxMinTmpSize and GetAscendAntiQuantMaxMinTmpSize give: docs/trust_boundary.md,
round 19's "Left open")."""

from __future__ import annotations

import pytest

from .tmp_minimum import assert_passes_at, assert_refused_under

ANTI_OPERANDS = (
    "LocalTensor<int8_t> q = norm.ReinterpretCast<int8_t>(); q.SetSize(64);\n"
    "    LocalTensor<bfloat16_t> b = norm[64].ReinterpretCast<bfloat16_t>(); b.SetSize(64);\n    "
)
# (api, call, minimum, helper): the buffer from byte 1,024 of the 2,048.
CALLS = [
    # 32 floats: two 256-byte repeats.
    (
        "AscendQuant",
        "AscendQuant<float>(norm[64].ReinterpretCast<int8_t>(), norm[0], tmp, 1.0f, 0.0f, 32);",
        512,
        "GetAscendQuantMaxMinTmpSize",
    ),
    # [1, 8] int32: 64 floats, one row of 8 and the scale's 8 + 8.
    (
        "AscendDequant",
        "AscendDequant<float, float>(norm[64], norm[0].ReinterpretCast<int32_t>(), 1.0f, tmp,"
        " DequantParams{1, 8, 8});",
        352,
        "GetAscendDequantMaxMinTmpSize",
    ),
    # 64 int8 to bfloat16 with a scalar scale: the helper's 1 KiB is past its maximum, a float copy
    # of the source (256 bytes), which is then the least taken.
    (
        "AscendAntiQuant",
        ANTI_OPERANDS
        + "AscendAntiQuant<int8_t, bfloat16_t, false>(b, q, static_cast<bfloat16_t>(0.0f),"
        " static_cast<bfloat16_t>(1.0f), tmp, 4);",
        256,
        "GetAscendAntiQuantMaxMinTmpSize",
    ),
]


@pytest.mark.parametrize(("api", "call", "minimum", "helper"), CALLS, ids=[c[0] for c in CALLS])
def test_a_quant_buffer_a_block_under_the_minimum_is_refused_on_both_engines(
    engines, api, call, minimum, helper
):
    # Under the minimum the device's library works past the buffer, over whatever the kernel keeps
    # there; before this the emulation computed whatever the buffer's size.
    assert_refused_under(engines, call, api, minimum, helper, offset=1024)


def test_quant_buffers_at_the_minimum_pass_on_both_engines(engines):
    assert_passes_at(engines, [(call, minimum, 1024) for _, call, minimum, _ in CALLS])
