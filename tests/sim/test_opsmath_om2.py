"""Kernel APIs the hicann/ops-math experimental operators (m to z) use that our headers lacked, each
on a kernel of our own against numpy: Tan and Trunc (advanced math), Barrier (with AscendC::Std
around it), Compare into the CMPMASK register and the Select that reads it."""

import numpy as np
from conftest import UB_HELPERS


def test_tan_and_trunc_with_and_without_a_shared_buffer(kernel):
    x = np.random.default_rng(11).uniform(-1.4, 1.4, 256).astype(np.float32)
    y = np.random.default_rng(12).uniform(-50, 50, 256).astype(np.float16)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 256), o = ub.Alloc<float>(512);
  LocalTensor<half> b = ub.In<half>(y, 256), h = ub.Alloc<half>(512);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096);
  SYNC();
  Tan(o, a, 256);
  Tan(o[256], a, tmp, 200);
  Trunc(h, b, 256);
  Trunc<half>(h[256], b, tmp, 256);
  SYNC(); ub.Out(za, o, 512); ub.Out(zb, h, 512);"""
    out = {"za": ("float32", (512,)), "zb": ("float16", (512,))}
    r = kernel(body, {"x": x, "y": y}, out, prelude=UB_HELPERS).ok().outputs
    want = np.tan(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(r["za"][:256], want, rtol=1e-6)
    np.testing.assert_allclose(r["za"][256:456], want[:200], rtol=1e-6)
    np.testing.assert_array_equal(r["zb"][:256], np.trunc(y))
    np.testing.assert_array_equal(r["zb"][256:], np.trunc(y))


def test_barrier_between_std_min_max_is_same(kernel):
    body = """Ub ub; LocalTensor<int32_t> o = ub.Alloc<int32_t>(8);
  uint32_t big = 70000; int16_t small = -3;
  o.SetValue(0, Std::min(big, 5u));
  o.SetValue(1, Std::max(small, static_cast<int16_t>(-9)));
  o.SetValue(2, AscendC::Std::is_same<half, float16_t>::value ? 1 : 0);
  o.SetValue(3, Std::is_same<int32_t, uint32_t>::value ? 1 : 0);
  Barrier();
  PRINTF("block %d of %d\\n", static_cast<int>(GetBlockIdx()), static_cast<int>(GetBlockNum()));
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 8);"""
    r = kernel(body, {}, {"z": ("int32", (8,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"][:4], [5, -3, 1, 0])


def test_compare_into_the_cmpmask_register_then_select_with_it(kernel):
    rng = np.random.default_rng(13)
    a = rng.integers(-2, 2, 128).astype(np.float32)
    b = rng.integers(-2, 2, 128).astype(np.float32)
    p = np.arange(128, dtype=np.float32)
    q = -np.arange(128, dtype=np.float32) - 1
    # One repeat of 64 float lanes compared (the first 40 under a continuous mask), then two
    # repeats of Select that both read the register's 64 bits.
    body = """Ub ub; LocalTensor<float> x = ub.In<float>(a, 128), y = ub.In<float>(b, 128);
  LocalTensor<float> s0 = ub.In<float>(p, 128), s1 = ub.In<float>(q, 128), o = ub.Alloc<float>(256);
  SYNC();
  Compare<float>(x, y, CMPMODE::LT, 40, {});
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(o, s0, s1, 2, {});
  Compare<float, false>(x[64], y[64], CMPMODE::EQ, MASK_PLACEHOLDER, {});
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(o[128], s0, s1, 2, {});
  SYNC(); ub.Out(z, o, 256);"""
    z = kernel(
        body, {"a": a, "b": b, "p": p, "q": q}, {"z": ("float32", (256,))}, prelude=UB_HELPERS
    )
    z = z.ok().outputs["z"]
    lt = np.zeros(64, bool)
    lt[:40] = a[:40] < b[:40]
    eq = a[64:] == b[64:]
    for got, bits in ((z[:128], lt), (z[128:], eq)):
        np.testing.assert_array_equal(got, np.where(np.tile(bits, 2), p, q))
