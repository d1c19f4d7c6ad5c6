"""The reductions against numpy: the high-level pattern reductions (asc-devkit 归约操作) ReduceProd,
ReduceAny, ReduceAll and ReduceMean over the last (AR) and the first (RA) axis of a 2-D float tensor
whose rows are padded to 32 B, with and without a sharedTmpBuffer or with the library's own
temporary space; ReduceMax/ReduceMin with a mask array and the max/min register; RepeatReduceSum
with a source block stride of 0; ReduceSum's result in the accumulator register."""

import numpy as np
from conftest import UB_HELPERS

ROWS, COLS, PITCH = 4, 6, 8  # 6 floats a row, padded to 8 (32 B)


def test_pattern_reductions(kernel):
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, (ROWS, COLS)).astype(
        np.float32
    )  # small integers: exact products and sums
    bits = rng.integers(0, 2, (ROWS, COLS)).astype(np.float32)
    bits[0] = 1  # one row all true, one all false, so All and Any see both outcomes
    bits[1] = 0
    padded = np.zeros((2, ROWS, PITCH), np.float32)
    padded[0, :, :COLS], padded[1, :, :COLS] = x, bits
    body = f"""Ub ub;
  LocalTensor<float> v = ub.In<float>(x, {ROWS * PITCH}), b = ub.In<float>(x + {ROWS * PITCH} * 4, {ROWS * PITCH});
  LocalTensor<float> o = ub.Alloc<float>(8 * 8);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  uint32_t shape[2] = {{{ROWS}, {COLS}}};
  ReduceProd<float, Pattern::Reduce::AR>(o[0], v, tmp, shape, true);
  ReduceProd<float, Pattern::Reduce::RA>(o[8], v, shape, true);
  ReduceMean<float, Pattern::Reduce::AR>(o[16], v, shape, true);
  ReduceMean<float, Pattern::Reduce::RA, true>(o[24], v, tmp, shape, true);
  ReduceAny<float, Pattern::Reduce::AR>(o[32], b, shape, true);
  ReduceAny<float, Pattern::Reduce::RA>(o[40], b, tmp, shape, true);
  ReduceAll<float, Pattern::Reduce::AR>(o[48], b, tmp, shape, true);
  ReduceAll<float, Pattern::Reduce::RA>(o[56], b, shape, true);
  SYNC(); ub.Out(z, o, 64);"""
    z = (
        kernel(body, {"x": padded.ravel()}, {"z": ("float32", (8, 8))}, prelude=UB_HELPERS)
        .ok()
        .outputs["z"]
    )
    np.testing.assert_array_equal(z[0, :ROWS], x.prod(axis=1))
    np.testing.assert_array_equal(z[1, :COLS], x.prod(axis=0))
    np.testing.assert_array_equal(z[2, :ROWS], (x.sum(axis=1) / COLS).astype(np.float32))
    np.testing.assert_array_equal(z[3, :COLS], x.mean(axis=0))
    np.testing.assert_array_equal(z[4, :ROWS], bits.max(axis=1))
    np.testing.assert_array_equal(z[5, :COLS], bits.max(axis=0))
    np.testing.assert_array_equal(z[6, :ROWS], bits.min(axis=1))
    np.testing.assert_array_equal(z[7, :COLS], bits.min(axis=0))
    assert list(z[6, :2]) == [1, 0] and list(z[4, :2]) == [1, 0]


def test_repeat_reduce_sum_with_source_block_stride_zero_reuses_the_first_block(kernel):
    # asc-devkit's high-dimensional slicing page (which ReduceRepeat's srcBlkStride refers to):
    # with srcBlkStride 0 the source reuses its first DataBlock, so one repeat of 64 floats sums
    # block 0 eight times.
    x = np.arange(64, dtype=np.float32)
    body = """
  Ub u;
  LocalTensor<float> s = u.In<float>(x, 64), d = u.Alloc<float>(8);
  SYNC();
  RepeatReduceSum<float>(d, s, 1, 64, 0, 0, 1, 8);
  SYNC();
  u.Out(y, d, 8);
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (8,))}, prelude=UB_HELPERS).ok()
    assert r.outputs["y"][0] == 8 * x[:8].sum()


def test_reduce_sum_leaves_its_result_in_acc_val_and_the_library_internals(kernel):
    # cann-ops rms_norm_grad: the count-form ReduceSum's result read back from ACC_VAL (GetAccVal,
    # raw bits, and GetReduceRepeatSumSpr<float>), the internal dav_c220 header path, `assert`
    # under __CCE_KT_TEST__, IsSameType, and InitOutput (InitGlobalMemory's predecessor).
    x = np.arange(64, dtype=np.float32) / 8
    body = """
  Ub u;
  LocalTensor<float> s = u.In<float>(x, 64), d = u.Alloc<float>(8);
  SYNC();
  ReduceSum(d, s, s, 50);
  SetFlag<HardEvent::V_S>(EVENT_ID0); WaitFlag<HardEvent::V_S>(EVENT_ID0);
  uint64_t bits = GetAccVal();
  const float sum = *reinterpret_cast<float*>(&bits);
  assert(sum == GetReduceRepeatSumSpr<float>());
  GlobalTensor<float> yg, zg;
  yg.SetGlobalBuffer((__gm__ float*)y); zg.SetGlobalBuffer((__gm__ float*)z);
  yg.SetValue(0, sum);
  InitOutput(zg, 8, IsSameType<float, float32_t>::value && !IsSameType<half, float>::value ? 2.0f : 0.0f);
"""
    prelude = '#include "impl/dav_c220/kernel_operator_reg_others_impl.h"\n' + UB_HELPERS
    r = kernel(
        body, {"x": x}, {"y": ("float32", (1,)), "z": ("float32", (8,))}, prelude=prelude
    ).ok()
    assert r.outputs["y"][0] == x[:50].sum()
    np.testing.assert_array_equal(r.outputs["z"], np.full(8, 2.0, np.float32))


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


def test_pattern_reduce_with_the_librarys_temporary_space_and_an_allocated_event(kernel):
    # AR and then RA over a [4, 16] float tile (the library's own temporary space, no
    # sharedTmpBuffer; the RA call lends the source with isReuseSource, which leaves it undefined,
    # so it comes last) after an event id taken from the pipe; the kernel sees the A2's __NPU_ARCH__.
    x = np.arange(64, dtype=np.float32).reshape(4, 16) / 8
    body = """TPipe pipe; TBuf<TPosition::VECCALC> bx, bc, br;
  pipe.InitBuffer(bx, 256); pipe.InitBuffer(bc, 64); pipe.InitBuffer(br, 64);
  GlobalTensor<float> xg, cg, rg; xg.SetGlobalBuffer((__gm__ float*)x, 64);
  cg.SetGlobalBuffer((__gm__ float*)cols, 16); rg.SetGlobalBuffer((__gm__ float*)rows, 16);
  LocalTensor<float> lx = bx.Get<float>(), lc = bc.Get<float>(), lr = br.Get<float>();
  DataCopy(lx, xg, 64);
  TEventID ev = GetTPipePtr()->AllocEventID<HardEvent::MTE2_V>();
  SetFlag<HardEvent::MTE2_V>(ev); WaitFlag<HardEvent::MTE2_V>(ev);
  GetTPipePtr()->ReleaseEventID<HardEvent::MTE2_V>(ev);
  uint32_t shape[2] = {4, 16};
  ReduceMax<float, Pattern::Reduce::AR, false>(lr, lx, shape, true);
  ReduceSum<float, Pattern::Reduce::RA, true>(lc, lx, shape, true);  // last: it lends lx to the library
#if __NPU_ARCH__ == 2201
  Duplicate(lr[8], 2201.0f, 8);
#endif
  TEventID out = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
  SetFlag<HardEvent::V_MTE3>(out); WaitFlag<HardEvent::V_MTE3>(out);
  DataCopy(cg, lc, 16); DataCopy(rg, lr, 16);"""
    r = kernel(body, {"x": x}, {"cols": ("float32", (16,)), "rows": ("float32", (16,))}).ok()
    np.testing.assert_allclose(r.outputs["cols"], x.sum(axis=0), rtol=1e-6)
    np.testing.assert_array_equal(r.outputs["rows"][:4], x.max(axis=1))
    np.testing.assert_array_equal(r.outputs["rows"][8:], 2201)


def test_reduce_sum_count_form_with_is_set_mask(kernel):
    # ReduceSum<T, isSetMask>(dst, src, work, count): true takes `count` as the default form does;
    # false ignores it and takes the lanes the kernel set with SetVectorMask (counter mode: a count).
    x = np.arange(256, dtype=np.float32) / 4
    body = """Ub ub;
  LocalTensor<float> s = ub.In<float>(x, 256), w = ub.Alloc<float>(256), d = ub.Alloc<float>(8 * 3);
  SYNC();
  ReduceSum<float, true>(d, s, w, 200);
  SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(0, 70);
  ReduceSum<float, false>(d[8], s, w, 1);
  SetMaskNorm(); SetVectorMask<float>(0, 0xFF);
  ReduceSum<float, false>(d[16], s, w, 1);
  ResetMask(); SYNC();
  ub.Out(y, d, 24);"""
    r = kernel(body, {"x": x}, {"y": ("float32", (24,))}, prelude=UB_HELPERS).ok()
    y = r.outputs["y"]
    assert (y[0], y[8], y[16]) == (x[:200].sum(), x[:70].sum(), x[:8].sum())


def test_counter_mode_whole_reduce_past_255_repeats(kernel):
    # Counter mode: the unit derives the repeats from the lane count (here 313 of 64 lanes, more than
    # repeatTime's 8 bits hold) and ignores the repeatTime argument, as isamax does over a large tile.
    n = 20000
    x = np.random.default_rng(4).uniform(-1, 1, n).astype(np.float32)
    reps = (n + 63) // 64
    body = f"""Ub ub; LocalTensor<float> a = ub.In<float>(x, {n}), o = ub.Alloc<float>({reps + 7} / 8 * 8);
  SYNC();
  SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(0, {n});
  WholeReduceSum<float, false>(o, a, MASK_PLACEHOLDER, 1, 1, 1, 8);
  SetMaskNorm(); ResetMask();
  SYNC(); ub.Out(y, o, {(reps + 7) // 8 * 8});"""
    y = kernel(body, {"x": x}, {"y": ("float32", ((reps + 7) // 8 * 8,))}, prelude=UB_HELPERS)
    sums = y.ok().outputs["y"][:reps]
    padded = np.zeros(reps * 64, np.float32)
    padded[:n] = x
    np.testing.assert_allclose(sums, padded.reshape(reps, 64).sum(axis=1), rtol=1e-5, atol=1e-5)


def test_reduction_results_at_element_offsets(kernel):
    # ReduceRepeat's table 3 (cited by ReduceSum): a sum's destination is aligned to its value's
    # size, a max/min with its index to 4 B; the source stays 32 B aligned.
    x = np.arange(128, dtype=np.float32) / 8
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 128), o = ub.Alloc<float>(16), w = ub.Alloc<float>(64);
  SYNC();
  WholeReduceSum(o[1], a, 64, 2, 1, 1, 8);
  ReduceSum(o[3], a, w, 128);
  WholeReduceMax(o[5], a, 64, 1, 1, 1, 8);
  SYNC(); ub.Out(y, o, 16);"""
    y = kernel(body, {"x": x}, {"y": ("float32", (16,))}, prelude=UB_HELPERS).ok().outputs["y"]
    assert (y[1], y[2], y[3]) == (x[:64].sum(), x[64:].sum(), x.sum())
    assert y[5] == x[:64].max() and y[6:7].view(np.uint32)[0] == 63
