"""Vector APIs added from the documentation: SetCmpMask / GetCmpMask (the CMPMASK register to and
from the UB, read by Select<T, VSEL_CMPMASK_SPR>) and the high-level Frac in all four forms; exact
against numpy."""

import numpy as np
from conftest import UB_HELPERS


def test_set_and_get_cmp_mask(kernel):
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 2**63, 2, dtype=np.uint64)
    a = rng.integers(-2, 2, 64).astype(np.float32)
    b = rng.integers(-2, 2, 64).astype(np.float32)
    p = np.arange(64, dtype=np.float32)
    q = -np.arange(64, dtype=np.float32) - 1
    # SetCmpMask from the UB drives a Select of 64 float lanes (the low 64 bits); a Compare into
    # the register, read back with GetCmpMask, gives its bits lane by lane.
    body = """Ub ub; LocalTensor<uint64_t> m = ub.In<uint64_t>(bits, 4), back = ub.Alloc<uint64_t>(4);
  LocalTensor<float> x = ub.In<float>(a, 64), y = ub.In<float>(b, 64);
  LocalTensor<float> s0 = ub.In<float>(p, 64), s1 = ub.In<float>(q, 64), o = ub.Alloc<float>(64);
  SYNC();
  SetCmpMask(m);
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(o, s0, s1, 1, {});
  Compare<float>(x, y, CMPMODE::LE, 64, {});
  GetCmpMask(back);
  SYNC(); ub.Out(z, o, 64); ub.Out(w, back, 4);"""
    r = kernel(
        body,
        {"bits": np.concatenate([bits, bits]).view(np.int64), "a": a, "b": b, "p": p, "q": q},
        {"z": ("float32", (64,)), "w": ("int64", (4,))},
        prelude=UB_HELPERS,
    ).ok()
    low = (int(bits[0]) >> np.arange(64)) & 1
    np.testing.assert_array_equal(r.outputs["z"], np.where(low == 1, p, q))
    le = sum(1 << i for i in range(64) if a[i] <= b[i])
    assert [int(v) for v in r.outputs["w"][:2].view(np.uint64)] == [le, 0]


def test_frac_forms(kernel):
    x = np.array([-258.41888, 5592.625, 0.5, -0.0, 3.0, -7.75, 1e-3, 123456.7] * 8, np.float32)
    body = """Ub ub; LocalTensor<float> v = ub.In<float>(x, 64), o = ub.Alloc<float>(4 * 64);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(1024); SYNC();
  Frac(o, v, 64);
  Frac(o[64], v, tmp, 32);
  Frac(o[128], v);
  Frac(o[192], v, tmp);
  SYNC(); ub.Out(z, o, 4 * 64);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (4, 64))}, prelude=UB_HELPERS).ok().outputs["z"]
    want = x - np.trunc(x)
    for row in (0, 2, 3):
        np.testing.assert_array_equal(z[row], want)
    np.testing.assert_array_equal(z[1, :32], want[:32])
