"""The A2 proposal sort family on kernels of our own against numpy: Concat + Sort<T, true> + Extract
(a full, stable, descending sort of (score, index) pairs), Sort<T, false> (32-element groups),
MrgSort of up to 4 lists with exhausted suspension and the counts it reports (GetMrgSortResult,
the sortedNum of MrgSort<T, true>), repeats of 4 equal lists, GetSortLen / GetSortOffset, and
Sort32."""

import numpy as np
from conftest import UB_HELPERS

RNG = np.random.default_rng(15)


def _scores(n: int, dtype=np.float32) -> np.ndarray:
    # Few distinct values, so equal scores (and their order) are exercised.
    return (RNG.integers(-20, 20, n) / 4).astype(dtype)


def _merge(lists: list[list[tuple[float, int]]], suspend: bool) -> tuple[list, list[int]]:
    """MrgSort's model: the highest score first, the earlier list on ties."""
    taken = [0] * len(lists)
    out = []
    while True:
        live = [k for k in range(len(lists)) if taken[k] < len(lists[k])]
        if not live or (suspend and len(live) < len(lists)):
            return out, taken
        best = max(live, key=lambda k: (lists[k][taken[k]][0], -k))
        out.append(lists[best][taken[best]])
        taken[best] += 1


def test_full_sort_is_stable_and_descending_and_extract_splits_pairs(kernel):
    n = 160  # 5 groups of 32: a 4-way merge round with a lone tail list, then a 2-way one
    x = _scores(n)
    idx = np.arange(1000, 1000 + n, dtype=np.int32)
    body = f"""Ub ub; LocalTensor<float> v = ub.In<float>(x, {n});
  LocalTensor<uint32_t> ix = ub.In<uint32_t>(i, {n});
  LocalTensor<float> concat, sorted = ub.Alloc<float>(GetSortLen<float>({n})), tmp = ub.Alloc<float>(GetSortLen<float>({n}));
  LocalTensor<float> value = ub.Alloc<float>({n}), ctmp = ub.Alloc<float>({n});
  LocalTensor<uint32_t> index = ub.Alloc<uint32_t>({n});
  SYNC();
  Concat(concat, v, ctmp, {n // 16});
  Sort<float, true>(sorted, concat, ix, tmp, {n // 32});
  PipeBarrier<PIPE_V>();
  Extract(value, index, sorted, {n // 32});
  SYNC(); ub.Out(z, value, {n}); ub.Out(k, index, {n});"""
    r = kernel(
        body,
        {"x": x, "i": idx},
        {"z": ("float32", (n,)), "k": ("int32", (n,))},
        prelude=UB_HELPERS,
    ).ok()
    order = np.argsort(-x, kind="stable")
    np.testing.assert_array_equal(r.outputs["z"], x[order])
    np.testing.assert_array_equal(r.outputs["k"], idx[order])


def test_group_sort_and_half_pairs(kernel):
    n = 64
    x = _scores(n, np.float16)
    body = f"""Ub ub; LocalTensor<half> v = ub.In<half>(x, {n});
  LocalTensor<uint32_t> ix = ub.Alloc<uint32_t>({n});
  for (int j = 0; j < {n}; ++j) ix.SetValue(j, j);
  // The half index pass reads twice the pairs: sorted is allocated for them.
  LocalTensor<half> sorted = ub.Alloc<half>(2 * GetSortLen<half>({n})), tmp = ub.Alloc<half>(32);
  LocalTensor<half> value = ub.Alloc<half>({n});
  LocalTensor<uint32_t> index = ub.Alloc<uint32_t>(2 * {n});  // the half index pass covers twice the pairs
  SYNC();
  Sort<half, false>(sorted, v, ix, tmp, {n // 32});
  PipeBarrier<PIPE_V>();
  Extract(value, index, sorted, {n // 32});
  SYNC(); ub.Out(z, value, {n}); ub.Out(k, index, {n});
  GlobalTensor<int32_t> wg; wg.SetGlobalBuffer((__gm__ int32_t*)w, 8);
  wg.SetValue(0, GetSortLen<half>(10)); wg.SetValue(1, GetSortOffset<half>(3));
  wg.SetValue(2, GetSortLen<float>(10)); wg.SetValue(3, GetSortOffset<float>(3));"""
    r = kernel(
        body,
        {"x": x},
        {"z": ("float16", (n,)), "k": ("int32", (n,)), "w": ("int32", (8,))},
        prelude=UB_HELPERS,
    ).ok()
    order = np.concatenate(
        [g * 32 + np.argsort(-x[g * 32 : g * 32 + 32], kind="stable") for g in range(2)]
    )
    np.testing.assert_array_equal(r.outputs["z"], x[order])
    np.testing.assert_array_equal(r.outputs["k"], order)
    assert r.outputs["w"][:4].tolist() == [
        40,
        12,
        20,
        6,
    ]  # in T elements: a pair is 4 halves or 2 floats


def test_mrgsort_suspends_on_an_exhausted_list_and_reports_counts(kernel):
    x = _scores(96)
    lengths = [32, 10, 25]
    body = """Ub ub; LocalTensor<float> v = ub.In<float>(x, 96);
  LocalTensor<uint32_t> ix = ub.Alloc<uint32_t>(96);
  for (int j = 0; j < 96; ++j) ix.SetValue(j, j);
  LocalTensor<float> pairs = ub.Alloc<float>(192), merged = ub.Alloc<float>(192), again = ub.Alloc<float>(192);
  SYNC();
  Sort32(pairs, v, ix, 3);
  PipeBarrier<PIPE_V>();
  const uint16_t len[4] = {32, 10, 25, 0};
  MrgSortSrcList<float> list(pairs[0], pairs[64], pairs[128], pairs[0]);
  MrgSort(merged, list, MrgSort4Info(len, true, 7, 1));
  uint16_t a, b, c, d;
  GetMrgSortResult(a, b, c, d);
  uint32_t sortedNum[4] = {0, 0, 0, 0};
  MrgSort<float, false>(again, list, len, sortedNum, 7, 1);  // no suspension: all 67 pairs
  SYNC(); ub.Out(z, merged, 192); ub.Out(y, again, 192);
  GlobalTensor<int32_t> wg; wg.SetGlobalBuffer((__gm__ int32_t*)w, 8);
  wg.SetValue(0, a); wg.SetValue(1, b); wg.SetValue(2, c); wg.SetValue(3, d);
  SYNC();
  MrgSort<float, true>(again, list, len, sortedNum, 7, 1);
  for (int j = 0; j < 3; ++j) wg.SetValue(4 + j, sortedNum[j]);"""
    r = kernel(
        body,
        {"x": x},
        {"z": ("float32", (192,)), "y": ("float32", (192,)), "w": ("int32", (8,))},
        prelude=UB_HELPERS,
    ).ok()
    runs = []
    for g in range(3):
        o = g * 32 + np.argsort(-x[g * 32 : g * 32 + 32], kind="stable")
        runs.append([(float(x[j]), int(j)) for j in o[: lengths[g]]])

    def pairs(a: np.ndarray, m: int) -> list:
        return [
            (float(s), int(i)) for s, i in zip(a[0 : 2 * m : 2], a[1 : 2 * m : 2].view(np.int32))
        ]

    want, taken = _merge(runs, suspend=True)
    assert pairs(r.outputs["z"], len(want)) == want
    assert r.outputs["w"].tolist()[:7] == [*taken, 0, *taken]
    full, _ = _merge(runs, suspend=False)
    assert len(full) == 67 and pairs(r.outputs["y"], 67) == full


def test_mrgsort_repeats_merge_consecutive_groups_of_four_lists(kernel):
    x = _scores(256)
    body = """Ub ub; LocalTensor<float> v = ub.In<float>(x, 256);
  LocalTensor<uint32_t> ix = ub.Alloc<uint32_t>(256);
  for (int j = 0; j < 256; ++j) ix.SetValue(j, j);
  LocalTensor<float> pairs = ub.Alloc<float>(512), merged = ub.Alloc<float>(512);
  SYNC();
  Sort32(pairs, v, ix, 8);
  PipeBarrier<PIPE_V>();
  MrgSort4Info info;
  for (int j = 0; j < 4; ++j) info.elementLengths[j] = 32;
  info.validBit = 15; info.repeatTimes = 2;
  MrgSort<float>(merged, MrgSortSrcList<float>(pairs[0], pairs[64], pairs[128], pairs[192]), info);
  SYNC(); ub.Out(z, merged, 512);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (512,))}, prelude=UB_HELPERS).ok()
    z = r.outputs["z"]
    for half in range(2):
        part = x[half * 128 : half * 128 + 128]
        order = half * 128 + np.argsort(-part, kind="stable")
        got = z[half * 256 : half * 256 + 256]
        np.testing.assert_array_equal(got[0::2], x[order])
        np.testing.assert_array_equal(got[1::2].view(np.int32), order)


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
