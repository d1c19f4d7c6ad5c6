"""Kernel APIs the hicann/ops-math experimental operators (a to l) use: Acos and ascendc_assert."""

import numpy as np
from conftest import UB_HELPERS

N = 256


def test_acos_with_and_without_a_shared_buffer(kernel):
    s = np.random.default_rng(3).uniform(-1, 1, N).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> b = ub.In<float>(x, {N}), o = ub.Alloc<float>(2 * {N});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  Acos(o, b, {N}); Acos(o[{N}], b, tmp, {N});
  SYNC(); ub.Out(z, o, 2 * {N});"""
    z = kernel(body, {"x": s}, {"z": ("float32", (2, N))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_allclose(z, np.broadcast_to(np.arccos(s), (2, N)), rtol=1e-6, atol=1e-6)


def test_ascendc_assert_stops_the_kernel_with_its_message(kernel):
    # Unlike ASSERT, ascendc_assert stays on in device builds; called unqualified in a template.
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  auto check = [](auto v) { ascendc_assert(v >= 0, "negative value %d in input", v); };
  check(int32_t(5)); ascendc_assert(true); zg.SetValue(0, 7);
  check(int32_t({value}));"""
    args = ({"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))})
    assert kernel(body.replace("{value}", "1"), *args).ok().outputs["z"][0] == 7
    r = kernel(body.replace("{value}", "-2"), *args)
    assert r.status == "RUNTIME_ERROR"
    assert "ascendc_assert(v >= 0) failed: negative value %d in input" in r.message
