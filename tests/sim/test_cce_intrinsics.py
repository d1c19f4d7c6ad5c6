"""The CCE compiler intrinsics kernels call below the AscendC API (ascendc_sim/cce_intrinsics.h):
each family on kernels of our own, under the mask register in normal and counter mode."""

import numpy as np

RNG = np.random.default_rng(7)
X = RNG.integers(-50, 50, 512).astype(np.float32) / 4
Y = RNG.integers(-50, 50, 512).astype(np.float32) / 4

# UB tensors at byte addresses as raw pointers, and the pipe orderings the bodies need.
PRELUDE = """
template <typename T>
__aicore__ inline __ubuf__ T* Ub(uint32_t byte) {
  return reinterpret_cast<__ubuf__ T*>(LocalTensor<T>(TPosition::VECCALC, byte, 32).GetPhyAddr());
}
__aicore__ inline void MteToV() { set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0); }
__aicore__ inline void VToMte3() { set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0); wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0); }
"""


def test_binary_and_vector_scalar_under_normal_and_counter_masks(kernel):
    body = """__ubuf__ float* a = Ub<float>(0); __ubuf__ float* b = Ub<float>(2048); __ubuf__ float* d = Ub<float>(4096);
  copy_gm_to_ubuf(a, x, 0, 1, 64, 0, 0); copy_gm_to_ubuf(b, y, 0, 1, 64, 0, 0);
  MteToV();
  set_mask_count(); set_vector_mask(0, 512); vector_dup(d, -1.0f, 1, 1, 1, 8, 0); pipe_barrier(PIPE_V);
  set_mask_norm(); set_vector_mask(0, 0xFFFF0000ull);  // lanes 16..31 of each of 2 repeats
  vadd(d, a, b, 2, 1, 1, 1, 8, 8, 8);
  set_mask_count(); set_vector_mask(0, 100);             // 100 lanes, the repeat argument ignored
  vmuls(d + 128, a + 128, 3.0f, 1, 1, 1, 8, 8);
  set_vector_mask(0, 64);
  vmax(d + 256, a + 256, b + 256, 1, 1, 1, 1, 8, 8, 8);
  vmin(d + 320, a + 320, b + 320, 1, 1, 1, 1, 8, 8, 8);
  vsub(d + 384, a + 384, b + 384, 1, 1, 1, 1, 8, 8, 8);
  vadds(d + 448, a + 448, 0.5f, 1, 1, 1, 8, 8);
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  VToMte3(); copy_ubuf_to_gm(z, d, 0, 1, 64, 0, 0);"""
    r = kernel(body, {"x": X, "y": Y}, {"z": ("float32", (512,))}, prelude=PRELUDE).ok()
    want = np.full(512, -1, np.float32)
    for lo in (16, 80):
        want[lo : lo + 16] = X[lo : lo + 16] + Y[lo : lo + 16]
    want[128:228] = X[128:228] * 3
    want[256:320] = np.maximum(X, Y)[256:320]
    want[320:384] = np.minimum(X, Y)[320:384]
    want[384:448] = (X - Y)[384:448]
    want[448:512] = X[448:512] + 0.5
    np.testing.assert_array_equal(r.outputs["z"], want)


# Distinct values: no ties for the first-occurrence index to break.
H = (RNG.permutation(256) - 128).astype(np.float16) / 2


def test_vcmax_vcmin_orders_and_vconv(kernel):
    body = """__ubuf__ half* hu = Ub<half>(0); __ubuf__ half* r = Ub<half>(1024); __ubuf__ uint32_t* ri = Ub<uint32_t>(1056);
  __ubuf__ float* f = Ub<float>(2048); __ubuf__ int32_t* n = Ub<int32_t>(4096);
  copy_gm_to_ubuf_align_b16(hu, h, 0, 1, 512, 0, 0, 0, 0);
  MteToV();
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  vcmax(r, hu, 2, 1, 1, 8, Order_t::VALUE_INDEX);   // [max, index bits] per repeat of 128 halves
  vcmin(reinterpret_cast<__ubuf__ half*>(ri), hu, 2, 1, 1, 8, Order_t::ONLY_INDEX);  // a uint32 index per repeat
  set_mask_count(); set_vector_mask(0, 256);
  vconv_f162f32(f, hu, 1, 1, 1, 8, 4);
  pipe_barrier(PIPE_V);
  vmuls(f, f, 1.5f, 1, 1, 1, 8, 8);
  pipe_barrier(PIPE_V);
  vconv_f322s32r(n, f, 1, 1, 1, 8, 8);
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  VToMte3();
  copy_ubuf_to_gm_align_b16(zr, r, 0, 1, 8, 0, 0, 0, 0);
  copy_ubuf_to_gm_align_b32(zi, ri, 0, 1, 8, 0, 0, 0, 0);
  copy_ubuf_to_gm_align_b32(zn, n, 0, 1, 1024, 0, 0, 0, 0);"""
    outs = {"zr": ("float16", (4,)), "zi": ("int32", (2,)), "zn": ("int32", (256,))}
    r = kernel(body, {"h": H}, outs, prelude=PRELUDE).ok()
    halves = H.reshape(2, 128)
    zr = r.outputs["zr"]
    assert list(zr[[0, 2]]) == list(halves.max(axis=1))
    assert list(zr.view(np.uint16)[[1, 3]]) == list(halves.argmax(axis=1))
    assert list(r.outputs["zi"]) == list(halves.argmin(axis=1))
    np.testing.assert_array_equal(
        r.outputs["zn"], np.rint(H.astype(np.float32) * 1.5).astype(np.int32)
    )


def test_vcadd_sums_each_repeat_under_the_mask(kernel):
    body = """__ubuf__ float* a = Ub<float>(0); __ubuf__ float* d = Ub<float>(4096);
  copy_gm_to_ubuf(a, x, 0, 1, 64, 0, 0);
  MteToV();
  set_mask_norm(); set_vector_mask(0, 0xFFFFFFFFull);  // lanes 0..31 of each repeat
  vcadd(d, a, 8, 1, 1, 8, false);                      // one sum per repeat of 64 floats
  vcadd(d + 8, a, 4, 1, 1, 16);                        // every other repeat: a 16-block repeat stride
  set_vector_mask(~0ull, ~0ull);
  vcadd(d + 16, a, 8, 1, 1, 8);                        // whole repeats
  VToMte3(); copy_ubuf_to_gm(z, d, 0, 1, 3, 0, 0);"""
    r = kernel(body, {"x": X}, {"z": ("float32", (24,))}, prelude=PRELUDE).ok()
    rows = X.reshape(8, 64)
    z = r.outputs["z"]
    np.testing.assert_array_equal(z[:8], rows[:, :32].sum(axis=1))
    np.testing.assert_array_equal(z[8:12], rows[::2, :32].sum(axis=1))
    np.testing.assert_array_equal(z[16:], rows.sum(axis=1))


def test_vcadd_to_acc_val_is_refused(kernel):
    body = """__ubuf__ float* a = Ub<float>(0);
  set_mask_count(); set_vector_mask(0, 64); vcadd(a, a, 1, 1, 1, 8, true);"""
    r = kernel(body, {"x": X}, {"z": ("float32", (8,))}, prelude=PRELUDE)
    assert r.status == "RUNTIME_ERROR" and "vcadd: the ACC_VAL form" in r.message, r.message


def test_compare_intrinsics_and_the_three_vsel_modes(kernel):
    body = """__ubuf__ float* a = Ub<float>(0); __ubuf__ float* b = Ub<float>(1024);
  __ubuf__ uint8_t* bits = Ub<uint8_t>(2048); __ubuf__ uint8_t* bitsS = Ub<uint8_t>(2080);
  __ubuf__ float* d0 = Ub<float>(4096); __ubuf__ float* d1 = Ub<float>(5120); __ubuf__ float* d2 = Ub<float>(6144);
  // The library's scratch at an integer UB address, as kernels form it.
  __ubuf__ uint8_t* m = reinterpret_cast<__ubuf__ uint8_t*>(TMP_UB_OFFSET);
  __ubuf__ uint32_t* word = reinterpret_cast<__ubuf__ uint32_t*>(TMP_UB_OFFSET + 4096);
  copy_gm_to_ubuf(a, x, 0, 1, 32, 0, 0); copy_gm_to_ubuf(b, y, 0, 1, 32, 0, 0);
  MteToV();
  set_mask_norm(); set_vector_mask(0, ~0ull);
  vcmpv_lt(bits, a, b, 4, 1, 1, 1, 8, 8, 8);
  vcmpvs_ge(bitsS, a, 0.0f, 4, 1, 1, 8, 8);
  vcmpv_lt(m, a, b, 4, 1, 1, 1, 8, 8, 8);
  vcmp_gt(a, b, 1, 1, 1, 1, 8, 8, 8);            // CMPMASK = the first repeat's a > b
  pipe_barrier(PIPE_V);
  vsel(d0, a, b, 4, 1, 1, 1, 8, 8, 8);           // mode 0: those 64 bits in every repeat
  set_mask_count(); set_vector_mask(0, 8);
  vector_dup(word, static_cast<uint32_t>(TMP_UB_OFFSET), 1, 1, 1, 8, 0);
  pipe_barrier(PIPE_V); set_cmpmask(word); pipe_barrier(PIPE_V);
  set_vector_mask(0, 256);
  vsel(d1, a, b, 1, 1, 1, 1, 8, 8, 8, 2);        // mode 2: the bit mask at the address CMPMASK holds
  set_vector_mask(0, 8);
  vector_dup(reinterpret_cast<__ubuf__ float*>(word), 7.0f, 1, 1, 1, 8, 0);
  pipe_barrier(PIPE_V); set_cmpmask(word); pipe_barrier(PIPE_V);
  set_vector_mask(0, 256);
  vsel(d2, a, m, 1, 1, 1, 1, 8, 8, 8, 1);        // mode 1: src0 where set, CMPMASK's scalar where clear
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  VToMte3();
  copy_ubuf_to_gm(zb, bits, 0, 1, 2, 0, 0);
  copy_ubuf_to_gm(z0, d0, 0, 1, 32, 0, 0); copy_ubuf_to_gm(z1, d1, 0, 1, 32, 0, 0); copy_ubuf_to_gm(z2, d2, 0, 1, 32, 0, 0);"""
    outs = {
        "zb": ("uint8", (64,)),
        "z0": ("float32", (256,)),
        "z1": ("float32", (256,)),
        "z2": ("float32", (256,)),
    }
    x, y = X[:256], Y[:256]
    r = kernel(body, {"x": X, "y": Y}, outs, prelude=PRELUDE).ok()
    lt = x < y
    bits = np.concatenate(
        [np.packbits(lt, bitorder="little"), np.packbits(x >= 0, bitorder="little")]
    )
    np.testing.assert_array_equal(r.outputs["zb"], bits)
    first = np.tile(x[:64] > y[:64], 4)
    np.testing.assert_array_equal(r.outputs["z0"], np.where(first, x, y))
    np.testing.assert_array_equal(r.outputs["z1"], np.where(lt, x, y))
    np.testing.assert_array_equal(r.outputs["z2"], np.where(lt, x, np.float32(7)))


def test_a_compare_into_a_bit_tensor_reads_no_mask(kernel):
    """On the A2 vcmpv / vcmpvs compare every lane of their repeats: the mask register, in counter
    mode (ops-math arg_max_with_value compares after leaving a count of 8) or as partial bits, is
    not read, and the API's mask parameter is reserved (asc-devkit Compare, Compares)."""
    body = """__ubuf__ float* a = Ub<float>(0); __ubuf__ float* b = Ub<float>(1024);
  __ubuf__ uint8_t* c = Ub<uint8_t>(2048); __ubuf__ uint8_t* s = Ub<uint8_t>(2080);
  __ubuf__ uint8_t* p = Ub<uint8_t>(2112); __ubuf__ uint8_t* q = Ub<uint8_t>(2144);
  copy_gm_to_ubuf(a, x, 0, 1, 32, 0, 0); copy_gm_to_ubuf(b, y, 0, 1, 32, 0, 0);
  MteToV();
  set_mask_count(); set_vector_mask(0, 8);
  vcmpv_lt(c, a, b, 4, 1, 1, 1, 8, 8, 8);
  vcmpvs_ge(s, a, 0.0f, 4, 1, 1, 8, 8);
  set_mask_norm(); set_vector_mask(0, 0xFull);
  LocalTensor<float> ta(TPosition::VECCALC, 0, 256), tb(TPosition::VECCALC, 1024, 256);
  LocalTensor<uint8_t> tp(TPosition::VECCALC, 2112, 32), tq(TPosition::VECCALC, 2144, 32);
  Compare(tp, ta, tb, CMPMODE::LT, 3, 4, {1, 1, 1, 8, 8, 8});
  CompareScalar(tq, ta, 0.0f, CMPMODE::GE, 5, 4, {1, 1, 8, 8});
  set_vector_mask(~0ull, ~0ull);
  VToMte3();
  copy_ubuf_to_gm(z, c, 0, 1, 4, 0, 0);"""
    r = kernel(body, {"x": X, "y": Y}, {"z": ("uint8", (128,))}, prelude=PRELUDE).ok()
    x, y = X[:256], Y[:256]
    lt = np.packbits(x < y, bitorder="little")
    ge = np.packbits(x >= 0, bitorder="little")
    np.testing.assert_array_equal(r.outputs["z"], np.concatenate([lt, ge, lt, ge]))


OFFSETS = ((63 - np.arange(64)) * 4).astype(np.int32)  # byte offsets (uint32 on the device)


def test_gather_gather_mask_and_the_raw_copies(kernel):
    body = """__ubuf__ float* a = Ub<float>(0); __ubuf__ uint32_t* off = Ub<uint32_t>(1024);
  __ubuf__ uint32_t* g = Ub<uint32_t>(2048); __ubuf__ uint32_t* e = Ub<uint32_t>(2304); __ubuf__ uint32_t* o = Ub<uint32_t>(2560);
  __ubuf__ float* p = Ub<float>(3072); __ubuf__ float* q = Ub<float>(3200);
  GlobalTensor<int32_t> kg; kg.SetGlobalBuffer((__gm__ int32_t*)zk, 8);
  copy_gm_to_ubuf(a, x, 0, 1, 32, 0, 0); copy_gm_to_ubuf(off, offsets, 0, 1, 8, 0, 0);
  // Two rows of 5 floats 8 apart in GM, each padded with 1 left and 2 right by the register's value.
  set_mov_pad_val(GetScalarBitcodeValue(-9.0f));
  copy_gm_to_ubuf_align_b32(p, x, 0, 2, 20, 1, 2, 12, 0);
  MteToV();
  set_mask_norm(); set_vector_mask(0, ~0ull);
  vgather(g, off, static_cast<uint32_t>(reinterpret_cast<uint64_t>(a)), 8, 1);
  __ubuf__ uint32_t* au = reinterpret_cast<__ubuf__ uint32_t*>(a);
  set_mask_count(); set_vector_mask(0, 64);
  vreducev2(e, au, au, 1, 1, 1, 8, 8);            // built-in pattern 1: the even lanes
  int64_t evens = get_rsvd_cnt();
  set_vector_mask(0, 128);
  vreducev2(o, au, au, 1, 1, 2, 8, 8);            // one counter-mode repeat of 128 lanes: the odd ones
  int64_t odds = get_rsvd_cnt();
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  copy_ubuf_to_ubuf(q, p, 0, 1, 2, 0, 0);
  pipe_barrier(PIPE_V);
  VToMte3();
  copy_ubuf_to_gm_align_b32(zg, g, 0, 1, 256, 0, 0, 0, 0);
  copy_ubuf_to_gm_align_b32(ze, e, 0, 1, 128, 0, 0, 0, 0);
  copy_ubuf_to_gm_align_b32(zo, o, 0, 1, 256, 0, 0, 0, 0);
  copy_ubuf_to_gm_align_b32(zp, q, 0, 1, 64, 0, 0, 0, 0);
  kg.SetValue(0, (int32_t)evens); kg.SetValue(1, (int32_t)odds);"""
    outs = {
        "zg": ("float32", (64,)),
        "ze": ("float32", (32,)),
        "zo": ("float32", (64,)),
        "zp": ("float32", (16,)),
        "zk": ("int32", (8,)),
    }
    r = kernel(body, {"x": X, "offsets": OFFSETS}, outs, prelude=PRELUDE).ok()
    np.testing.assert_array_equal(r.outputs["zg"], X[:64][::-1])
    np.testing.assert_array_equal(r.outputs["ze"], X[:64:2])
    np.testing.assert_array_equal(r.outputs["zo"], X[1:128:2])
    pad = np.float32(-9)
    rows = [np.r_[pad, X[0:5], pad, pad], np.r_[pad, X[8:13], pad, pad]]
    np.testing.assert_array_equal(r.outputs["zp"], np.concatenate(rows))
    assert list(r.outputs["zk"][:2]) == [32, 64]


def test_tiling_key_var_preprocesses(kernel):
    prelude = """#if defined(TILING_KEY_VAR) && (TILING_KEY_VAR != 3)
constexpr int32_t kNotThree = 1;  // an #if on the key reads it as 0: one build serves every key
#else
constexpr int32_t kNotThree = 0;
#endif
"""
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  zg.SetValue(0, kNotThree); zg.SetValue(1, (int32_t)(uint64_t)TILING_KEY_VAR);"""
    outs = {"z": ("int32", (8,))}
    r = kernel(body, {"x": X}, outs, prelude=prelude, tiling_key=3).ok()
    assert list(r.outputs["z"][:2]) == [1, 3]


def test_vgather_offsets_past_the_ub_are_refused_before_they_are_read(kernel):
    # The offsets' tensor starts 512 bytes below the UB's end (192 KiB): a repeat of 64 uint32
    # lanes reads 256 bytes of offsets, so the third would read its offsets from beyond the UB.
    body = """__ubuf__ uint32_t* g = Ub<uint32_t>(0); __ubuf__ uint32_t* off = Ub<uint32_t>(196096);
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  vgather(g, off, 0u, 8, 3);"""
    r = kernel(body, {"x": X}, {"z": ("float32", (8,))}, prelude=PRELUDE)
    assert (
        r.status == "RUNTIME_ERROR" and "vgather: lane 0 of repeat 2 takes offset 128" in r.message
    ), r.message
