"""The Softmax flash family (ascendc_sim/adv_softmax_flash.h) against numpy: SoftmaxFlashV2 with and
without update, its outReduceMax form in the non-broadcast mode, SoftmaxFlash (V1) with and without
update, and the half source with float statistics; the documented formulas of asc-devkit's pages."""

import numpy as np
from conftest import UB_HELPERS

M, K = 8, 64


def flash(x, in_max, in_sum, update: bool, v1: bool):
    """dst, max, sum, expMax of one call, as the SoftmaxFlash / SoftmaxFlashV2 pages write them."""
    row_max = x.max(1)
    new_max = np.maximum(row_max, in_max) if update else row_max
    e = np.exp(x - new_max[:, None])
    exp_max = np.exp(in_max - new_max)
    total = e.sum(1) + (exp_max * in_sum if update else 0)
    if v1:
        return e / total[:, None], new_max, total, exp_max * in_sum / total
    return e, new_max, total, exp_max


def test_flash_v1_v2_and_the_reduce_max_form(kernel):
    rng = np.random.default_rng(11)
    x = rng.uniform(-3, 3, (M, K)).astype(np.float32)
    in_max = rng.uniform(-1, 4, M).astype(np.float32)
    in_sum = rng.uniform(1, 30, M).astype(np.float32)
    mk, s8 = M * K, M * 8
    body = f"""Ub ub;
  LocalTensor<float> a = ub.In<float>(x, {mk}), im = ub.In<float>(imx, {s8}), is = ub.In<float>(isx, {s8});
  LocalTensor<float> im1 = ub.In<float>(im1x, {M}), is1 = ub.In<float>(is1x, {M});
  LocalTensor<float> o = ub.Alloc<float>(6 * {mk} + 10 * {s8} + 4 * {M});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC();
  LocalTensor<float> st = o[5 * {mk}], nb = o[5 * {mk} + 10 * {s8}];
  SoftMaxTiling t{{}};
  const SoftMaxShapeInfo sh{{{M}, {K}, {M}, {K}}};
  SoftmaxFlashV2<float>(o, st, st[{s8}], a, st[9 * {s8}], is, im, tmp, SoftMaxFlashV2TilingFunc(sh, 4, 4, 8192));
  SoftmaxFlashV2<float, true>(o[{mk}], st[2 * {s8}], st[3 * {s8}], a, st[4 * {s8}], is, im, t, sh);
  SoftmaxFlash<float>(o[2 * {mk}], st[5 * {s8}], st[6 * {s8}], a, st[7 * {s8}], is, im, tmp, t, true, sh);
  static constexpr SoftmaxConfig cfg{{false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC}};
  SoftmaxFlashV2<float, true, false, false, false, cfg>(o[3 * {mk}], nb, nb[{M}], nb[2 * {M}], a, nb[3 * {M}],
                                                       is1, im1, t, sh);
  SoftmaxFlash<float>(o[4 * {mk}], st[8 * {s8}], st[9 * {s8}], a, st[9 * {s8}], is, im, t, false, sh);
  SimpleSoftMax<float>(o[5 * {mk} + 10 * {s8} + 4 * {M}], st[2 * {s8}], st[3 * {s8}], a, tmp, t, sh);
  SYNC(); ub.Out(z, o, 5 * {mk} + 10 * {s8} + 4 * {M}); ub.Out(sz, o[5 * {mk} + 10 * {s8} + 4 * {M}], {mk});"""
    ins = {
        "x": x,
        "imx": np.repeat(in_max, 8),
        "isx": np.repeat(in_sum, 8),
        "im1x": in_max,
        "is1x": in_sum,
    }
    outs = {"z": ("float32", (5 * mk + 10 * s8 + 4 * M,)), "sz": ("float32", (M, K))}
    r = kernel(body, ins, outs, prelude=UB_HELPERS).ok()
    z = r.outputs["z"]
    dst = z[: 5 * mk].reshape(5, M, K)
    st = z[5 * mk : 5 * mk + 10 * s8].reshape(10, M, 8)
    nb = z[5 * mk + 10 * s8 :].reshape(4, M)
    close = {"rtol": 2e-5, "atol": 1e-6}

    # The kernel-side tiling's rows and columns stand for the shape.
    d, mx, sm, _ = flash(x, in_max, in_sum, update=False, v1=False)
    np.testing.assert_allclose(dst[0], d, **close)
    np.testing.assert_allclose(st[0], np.repeat(sm[:, None], 8, 1), **close)
    np.testing.assert_array_equal(st[1], np.repeat(mx[:, None], 8, 1))

    d, mx, sm, em = flash(x, in_max, in_sum, update=True, v1=False)
    np.testing.assert_allclose(dst[1], d, **close)
    np.testing.assert_allclose(st[2][:, 0], sm, **close)
    np.testing.assert_array_equal(st[3][:, 0], mx)
    np.testing.assert_allclose(st[4], np.repeat(em[:, None], 8, 1), **close)
    # The non-broadcast form: one value a row, and the first reduce's row max.
    np.testing.assert_allclose(dst[3], d, **close)
    np.testing.assert_array_equal(nb[0], x.max(1))
    np.testing.assert_allclose(nb[1], sm, **close)
    np.testing.assert_array_equal(nb[2], mx)
    np.testing.assert_allclose(nb[3], em, **close)

    d, mx, sm, em = flash(x, in_max, in_sum, update=True, v1=True)
    np.testing.assert_allclose(dst[2], d, **close)
    np.testing.assert_allclose(st[5][:, 0], sm, **close)
    np.testing.assert_array_equal(st[6][:, 0], mx)
    np.testing.assert_allclose(st[7][:, 0], em, **close)
    # SimpleSoftMax from V2's running statistics: the softmax of the rows so far, x's share of it.
    _, mx, sm, _ = flash(x, in_max, in_sum, update=True, v1=False)
    np.testing.assert_allclose(r.outputs["sz"], np.exp(x - mx[:, None]) / sm[:, None], **close)

    d, mx, sm, _ = flash(x, in_max, in_sum, update=False, v1=True)
    np.testing.assert_allclose(dst[4], d, **close)
    np.testing.assert_allclose(st[8][:, 0], sm, **close)
    np.testing.assert_array_equal(st[9][:, 0], mx)


def test_flash_v2_half_source_with_float_statistics(kernel):
    rng = np.random.default_rng(12)
    x = rng.uniform(-3, 3, (M, K)).astype(np.float16)
    in_max = rng.uniform(-1, 4, M).astype(np.float32)
    in_sum = rng.uniform(1, 30, M).astype(np.float32)
    mk, s8 = M * K, M * 8
    body = f"""Ub ub;
  LocalTensor<half> a = ub.In<half>(x, {mk});
  LocalTensor<float> im = ub.In<float>(imx, {s8}), is = ub.In<float>(isx, {s8});
  LocalTensor<half> o = ub.Alloc<half>({mk} + {M} * 16);
  LocalTensor<float> st = ub.Alloc<float>(2 * {s8}); SYNC();
  SoftMaxTiling t{{}};
  SoftmaxFlashV2<half, true>(o, st, st[{s8}], a, o[{mk}], is, im, t, SoftMaxShapeInfo{{{M}, {K}, {M}, {K}}});
  SYNC(); ub.Out(z, o, {mk} + {M} * 16); ub.Out(sz, st, 2 * {s8});"""
    ins = {"x": x, "imx": np.repeat(in_max, 8), "isx": np.repeat(in_sum, 8)}
    outs = {"z": ("float16", (mk + M * 16,)), "sz": ("float32", (2, M, 8))}
    r = kernel(body, ins, outs, prelude=UB_HELPERS).ok()
    d, mx, sm, em = flash(x.astype(np.float32), in_max, in_sum, update=True, v1=False)
    z = r.outputs["z"].astype(np.float32)
    np.testing.assert_allclose(z[:mk].reshape(M, K), d, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(z[mk:].reshape(M, 16), np.repeat(em[:, None], 16, 1), rtol=1e-3)
    np.testing.assert_allclose(r.outputs["sz"][0][:, 0], sm, rtol=1e-5)
    np.testing.assert_array_equal(r.outputs["sz"][1][:, 0], mx)
