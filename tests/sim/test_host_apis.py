"""Host-side APIs a tiling function calls (docs/ascendc.md API 8)."""

import numpy as np
from conftest import HOST


def test_reserve_local_memory_shrinks_the_ub_the_tiling_sees(kernel):
    host = HOST.replace(
        "t.set_p(p);",
        """platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  uint64_t before = 0, after = 0;
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, before);
  plat.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, after);
  p[0] = before; p[1] = after;
  t.set_p(p);""",
    )
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.p[1]);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=host).ok()
    assert list(r.outputs["z"][:2]) == [196352, 196352 - 16384]


def test_list_attr_through_get_attr_pointer(kernel):
    # Host code often reads list attrs as GetAttrPointer<gert::ContinuousVector>(i)->GetData().
    host = HOST.replace(
        "const gert::ContinuousVector* params = attrs->GetListInt(0);",
        "const gert::ContinuousVector* params = attrs->GetAttrPointer<gert::ContinuousVector>(0);",
    )
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.p[1]); zg.SetValue(2, t.p[2]);"""
    r = kernel(
        body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, params=[7, -3, 11], host=host
    ).ok()
    assert list(r.outputs["z"][:3]) == [7, -3, 11]
