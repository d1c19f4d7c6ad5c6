"""Vector APIs real custom operators use that our headers lacked (issue 15, second pass), each on a
kernel of our own against numpy: ReduceMax/ReduceMin with a mask array and the max/min register
(GetReduceMaxMinCount), comparison operators on LocalTensors, SoftMax without sum/max outputs,
Sort32 and DataCopy with SliceInfo."""

import numpy as np
from conftest import UB_HELPERS


def test_reduce_mask_array_forms_and_the_max_min_register(kernel):
    x = np.random.default_rng(1).uniform(-5, 5, 256).astype(np.float32)
    x[77] = x[201] = 9.0  # a tie: the first occurrence wins
    x[130] = -9.0
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 256), o = ub.Alloc<float>(64), w = ub.Alloc<float>(64);
  SYNC();
  uint64_t mask[2] = {0x5555555555555555ull, 0};  // every other lane of each 64-lane repeat
  ReduceMax(o, a, w, mask, 4, 8, true);
  ReduceMin(o[8], a, w, mask, 4, 8, true);
  ReduceSum(o[16], a, w, mask, 4, 8);
  SYNC();
  float v = 0, i = 0;
  WholeReduceMax<float>(o[24], a, 64, 4, 2, 1, 8);  // four repeats: the register holds the max of all
  SetFlag<HardEvent::V_S>(0); WaitFlag<HardEvent::V_S>(0);
  GetReduceMaxMinCount<float>(v, i);
  o.SetValue(32, v); o.SetValue(33, i);
  SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(0, 150);  // counter mode: lanes [0, 150)
  WholeReduceMin<float, false>(o[40], a, MASK_PLACEHOLDER, 1, 1, 1, 8);
  SetMaskNorm(); ResetMask();
  SetFlag<HardEvent::V_S>(0); WaitFlag<HardEvent::V_S>(0);
  GetReduceRepeatMaxMinSpr<float>(v, i);
  o.SetValue(34, v); o.SetValue(35, i);
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 64);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (64,))}, prelude=UB_HELPERS).ok().outputs["z"]
    bits = z.view(np.uint32)
    picked = np.arange(256)[np.arange(256) % 2 == 0]
    sel = x[picked]
    assert z[0] == sel.max() and bits[1] == picked[np.argmax(sel)]
    assert z[8] == sel.min() and bits[9] == picked[np.argmin(sel)]
    np.testing.assert_allclose(z[16], sel.sum(dtype=np.float64), rtol=1e-6)
    assert z[32] == 9.0 and bits[33] == 77
    assert z[34] == x[:150].min() and bits[35] == np.argmin(x[:150])


def test_comparison_operators_on_local_tensors_write_compare_masks(kernel):
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 3, 64).astype(np.float32)
    b = rng.integers(-3, 3, 64).astype(np.float32)
    body = """Ub ub; LocalTensor<float> p = ub.In<float>(a, 64), q = ub.In<float>(b, 64);
  LocalTensor<uint8_t> m = ub.Alloc<uint8_t>(192);
  SYNC();
  LocalTensor<uint8_t> r[6] = {m, m[32], m[64], m[96], m[128], m[160]};
  r[0] = p < q; r[1] = p > q; r[2] = p == q; r[3] = p <= q; r[4] = p >= q; r[5] = p != q;
  SYNC(); ub.Out(z, m, 192);"""
    r = kernel(body, {"a": a, "b": b}, {"z": ("uint8", (192,))}, prelude=UB_HELPERS).ok()
    got = np.unpackbits(r.outputs["z"].reshape(6, 32)[:, :8], axis=1, bitorder="little").astype(
        bool
    )
    want = [a < b, a > b, a == b, a <= b, a >= b, a != b]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_softmax_without_sum_and_max_outputs(kernel):
    x = np.random.default_rng(3).uniform(-3, 3, (4, 24)).astype(np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 96), o = ub.Alloc<float>(192);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096);
  SYNC();
  SoftMaxTiling t{}; t.srcM = 4; t.srcK = 24;
  SoftMax<float>(o, a, t, SoftMaxShapeInfo{4, 24, 4, 20});  // only the first 20 of each row count
  SoftMax<float>(o[96], a, tmp, t);
  SYNC(); ub.Out(z, o, 192);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (2, 4, 24))}, prelude=UB_HELPERS).ok().outputs["z"]
    for k, out in ((20, z[0]), (24, z[1])):
        e = np.exp(x[:, :k] - x[:, :k].max(1, keepdims=True))
        np.testing.assert_allclose(out[:, :k], e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_sort32_sorts_each_group_of_32_descending_with_indices(kernel):
    rng = np.random.default_rng(4)
    x = rng.integers(-20, 20, 64).astype(np.float32)  # ties: equal scores keep their input order
    idx = np.arange(64, dtype=np.int32) + 1000  # read as uint32_t by the kernel
    h = rng.uniform(-1, 1, 32).astype(np.float16)
    body = """Ub ub; LocalTensor<float> s = ub.In<float>(x, 64), o = ub.Alloc<float>(128);
  LocalTensor<uint32_t> i = ub.In<uint32_t>(idx, 64);
  LocalTensor<half> hs = ub.In<half>(hx, 32), ho = ub.Alloc<half>(128);
  SYNC();
  Duplicate(ho, (half)0, 128);
  Sort32(o, s, i, 2);
  Sort32(ho, hs, i, 1);
  SYNC(); ub.Out(z, o, 128); ub.Out(hz, ho, 128);"""
    r = kernel(
        body,
        {"x": x, "idx": idx, "hx": h},
        {"z": ("float32", (64, 2)), "hz": ("float16", (32, 4))},
        prelude=UB_HELPERS,
    ).ok()
    z = r.outputs["z"]
    for g in range(2):
        order = np.argsort(-x[g * 32 : (g + 1) * 32], kind="stable") + g * 32
        np.testing.assert_array_equal(z[g * 32 : (g + 1) * 32, 0], x[order])
        np.testing.assert_array_equal(z[g * 32 : (g + 1) * 32, 1].view(np.int32), idx[order])
    hz = r.outputs["hz"]
    order = np.argsort(-h.astype(np.float32), kind="stable")
    np.testing.assert_array_equal(hz[:, 0], h[order])
    np.testing.assert_array_equal(hz[:, 2:].copy().view(np.int32).ravel(), idx[order])


def test_datacopy_with_slice_info_gathers_and_scatters_pieces(kernel):
    x = np.arange(3 * 40, dtype=np.float32).reshape(3, 40)
    body = """Ub ub; LocalTensor<float> t = ub.Alloc<float>(64);
  GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x); zg.SetGlobalBuffer((__gm__ float*)z);
  // rows 0 and 2 of a [3, 40] tensor, elements 4..23 of each in pieces of 8 with a gap of 4
  SliceInfo src[] = {{4, 23, 4, 1, 40}, {0, 2, 1, 1, 3}};
  SliceInfo dst[] = {{0, 15, 0, 1, 16}, {0, 1, 0, 1, 2}};
  DataCopy(t, xg, dst, src, 2);
  SYNC();
  // back out: the two 16-element halves to elements 0..15 and 24..39 of z
  SliceInfo ubs[] = {{0, 31, 0, 2, 32}};
  SliceInfo gms[] = {{0, 39, 8, 2, 40}};
  DataCopy(zg, t, gms, ubs, 1);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (40,))}, prelude=UB_HELPERS).ok()
    pieces = np.concatenate([x[row, s : s + 8] for row in (0, 2) for s in (4, 16)])
    want = np.full(40, np.nan, np.float32)
    want[0:16] = pieces[0:16]
    want[24:40] = pieces[16:32]
    np.testing.assert_array_equal(r.outputs["z"][:16], want[:16])
    np.testing.assert_array_equal(r.outputs["z"][24:], want[24:])


def test_gather_mask_counter_mode_takes_mask_lanes_of_every_repeat(kernel):
    x = np.arange(128, dtype=np.float32)
    pattern = np.array([0b1001, 0], dtype=np.int32)  # lanes 0 and 3; stride 0 rereads it per repeat
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 128), o = ub.Alloc<float>(64);
  LocalTensor<uint32_t> pat = ub.In<uint32_t>(p, 8);
  SYNC();
  Duplicate(o, -1.0f, 64);
  uint64_t n = 0;
  GatherMask(o, a, pat, true, 4, GatherMaskParams{1, 2, 8, 0}, n);
  SYNC();
  o.SetValue(63, (float)n);
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 64);"""
    z = kernel(
        body, {"x": x, "p": np.resize(pattern, 8)}, {"z": ("float32", (64,))}, prelude=UB_HELPERS
    )
    z = z.ok().outputs["z"]
    np.testing.assert_array_equal(z[:4], [0, 3, 64, 67])
    assert z[4] == -1 and z[63] == 4


def test_datacopypad_dummy_fill_repeats_the_first_element_without_padding(kernel):
    x = np.arange(1, 11, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> t = ub.Alloc<float>(16);
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x);
  Duplicate(t, 0.0f, 16);
  SetFlag<HardEvent::V_MTE2>(0); WaitFlag<HardEvent::V_MTE2>(0);
  // 5 floats per burst, no left/right padding: each row's 32 B tail is the hardware's dummy fill
  DataCopyPad(t, xg, DataCopyExtParams{2, 20, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, 0, 7.0f});
  SYNC(); ub.Out(z, t, 16);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (16,))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z, [1, 2, 3, 4, 5, 1, 1, 1, 6, 7, 8, 9, 10, 6, 6, 6])


def test_gather_mask_counter_mode_over_more_than_a_repeat(kernel):
    # One repeat of mask 150 floats (more than a 256 B repeat), built-in pattern 1 (even lanes),
    # GatherMaskParams{src0BlockStride 1, repeatTimes 1, src0RepeatStride 16 blocks}: lanes 0..63
    # from element 0 on, 64..127 from 128 on, 128..149 from 256 on.
    x = np.arange(384, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 384), o = ub.Alloc<float>(80);
  SYNC();
  Duplicate(o, -1.0f, 80);
  uint64_t n = 0;
  GatherMask(o, a, (uint8_t)1, true, 150, GatherMaskParams{1, 1, 16, 0}, n);
  SYNC();
  o.SetValue(79, (float)n);
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 80);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (80,))}, prelude=UB_HELPERS).ok().outputs["z"]
    lanes = [r * 128 + e for r, k in ((0, 64), (1, 64), (2, 22)) for e in range(0, k, 2)]
    np.testing.assert_array_equal(z[:75], lanes)
    assert z[75] == -1 and z[79] == 75


def test_gather_mask_counter_mode_over_a_repeat_with_several_repeats_is_refused(kernel):
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 256), o = ub.Alloc<float>(256);
  SYNC(); uint64_t n = 0;
  GatherMask(o, a, (uint8_t)1, true, 100, GatherMaskParams{1, 2, 8, 0}, n);
  SYNC(); ub.Out(z, o, 64);"""
    x = np.arange(256, dtype=np.float32)
    r = kernel(body, {"x": x}, {"z": ("float32", (64,))}, prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR" and "is emulated for one repeat only" in r.message, r.message
