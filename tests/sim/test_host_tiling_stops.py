"""Host API a tiling program stopped at (issue 52): metadef's float aliases (`ge::float32_t`) and
`SetDataPtr` on tiling data, after which each `set_` writes its field into the raw tiling buffer,
so a tiling that never calls SaveToBuffer still hands the kernel its fields."""

from __future__ import annotations

import numpy as np
from conftest import HOST, TILING_WORDS

SAVE = "  t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());\n"
SET = "  t.set_p(p);"


def _words(kernel, host: str) -> list[int]:
    run = kernel(
        TILING_WORDS,
        {"x": np.zeros(8, np.float32)},
        {"z": ("int64", (8,))},
        host=host,
        params=[1, 2, 3],
    )
    return [int(v) for v in run.ok().outputs["z"]]


def test_set_data_ptr_makes_the_setters_write_the_raw_tiling_data(kernel):
    assert SAVE in HOST and SET in HOST
    host = HOST.replace(SAVE, "").replace(
        SET,
        "  t.SetDataPtr(ctx->GetRawTilingData()->GetData());\n"
        "  p[7] = static_cast<int64_t>(sizeof(ge::float32_t) * 10 + sizeof(ge::float64_t));\n"
        + SET,
    )
    assert _words(kernel, host) == [1, 2, 3, 0, 0, 0, 0, 48]


def test_without_set_data_ptr_or_save_to_buffer_the_kernel_reads_no_fields(kernel):
    # The same tiling without SetDataPtr: the fields stay in the object, the raw buffer as it was.
    assert _words(kernel, HOST.replace(SAVE, "")) == [0] * 8
