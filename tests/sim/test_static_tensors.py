"""Static tensor programming and core state: LocalTensor(pos, addr, len), LocalMemAllocator,
InitSocState, GM padding of allocations, and scalar reads ordered through PIPE_V's waits."""

import numpy as np

X = np.arange(1024, dtype=np.float32) - 300.5
GM = "GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 1024); GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 1024);\n"
OUT = {"z": ("float32", (1024,))}


def test_local_tensor_at_a_byte_address_round_trips(kernel):
    body = (
        GM
        + """LocalTensor<float> a(TPosition::VECIN, 0, 1024), b(TPosition::VECOUT, 4096, 1024);
  DataCopy(a, xg, 1024); SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Muls(b, a, 2.0f, 1000); SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
  DataCopyPad(zg, b, DataCopyExtParams{1, 1000 * 4, 0, 0, 0});"""
    )
    r = kernel(body, {"x": X}, {"z": ("float32", (1000,))}).ok()
    np.testing.assert_array_equal(r.outputs["z"], X[:1000] * 2)


def test_local_tensor_at_a_byte_address_is_checked(kernel):
    r = kernel("LocalTensor<float> t(TPosition::VECCALC, 196352 - 1024, 1024);", {"x": X}, OUT)
    assert (
        r.status == "RUNTIME_ERROR"
        and "exceed the 196608 B of UB" in r.message
        and "simk.cpp:" in r.message
    )
    r = kernel("LocalTensor<half> t(TPosition::VECCALC, 48, 16);", {"x": X}, OUT)
    assert r.status == "RUNTIME_ERROR" and "not 32 B aligned" in r.message


def test_local_mem_allocator_bumps_in_32_byte_steps(kernel):
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float16_t> a = ub.Alloc<float16_t, 17>();          // 34 B -> 64 B
  LocalTensor<float> b = ub.Alloc<TPosition::VECIN, float>(8);    // 32 B
  LocalTensor<int8_t> c = ub.Alloc<int8_t>(1);                    // 1 B -> 32 B
  zg.SetValue(0, a.GetSize()); zg.SetValue(1, ub.GetCurAddr());
  zg.SetValue(2, (int32_t)(b.GetPhyAddr() - a.GetPhyAddr()));
  zg.SetValue(3, (int32_t)((int8_t*)c.GetPhyAddr() - (int8_t*)a.GetPhyAddr())); zg.SetValue(4, (int32_t)b.GetPosition());
  // The device's signature: the address as a uint64_t, GetPhyAddr(n) n elements (bytes) further.
  static_assert(std::is_same<decltype(b.GetPhyAddr(3)), uint64_t>::value, "uint64_t");
  zg.SetValue(5, (int32_t)(b.GetPhyAddr(3) - b.GetPhyAddr()));"""
    r = kernel(body, {"x": X}, {"z": ("int32", (8,))}).ok()
    assert list(r.outputs["z"][:6]) == [17, 128, 64, 96, 9, 12]  # TPosition::VECIN == 9


def test_local_mem_allocator_past_the_unified_buffer(kernel):
    body = "LocalMemAllocator<> ub; ub.Alloc<float, 40000>(); ub.Alloc<float>(10000);"
    r = kernel(body, {"x": X}, OUT)
    assert r.status == "RUNTIME_ERROR"
    assert (
        "LocalMemAllocator::Alloc of 10000 elements (40000 B) at UB address 160000 exceeds the 196352 B"
        in r.message
    )


def test_init_soc_state_clears_atomic_mode(kernel):
    body = (
        GM
        + """TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 4096); LocalTensor<float> t = b.Get<float>();
  DataCopy(t, xg, 1024); SetFlag<HardEvent::MTE2_MTE3>(0); WaitFlag<HardEvent::MTE2_MTE3>(0);
  SetAtomicAdd<float>(); InitSocState(); DataCopy(zg, t, 1024);"""
    )
    r = kernel(body, {"x": X}, OUT).ok()  # outputs start as NaN: an atomic add would keep them NaN
    np.testing.assert_array_equal(r.outputs["z"], X)


def test_gm_allocations_have_acl_padding(kernel):
    # aclrtMalloc rounds a buffer up to 32 B and adds 32 B: whole-block copies past a tensor's end
    # inside that stay legal, one block further is an out-of-range access.
    x = np.arange(1000, dtype=np.float32)  # 4000 B -> 4032 B usable
    read = """GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 1008); GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 1000);
  TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>();
  DataCopy(t, xg, {n}); SetFlag<HardEvent::MTE2_MTE3>(0); WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopyPad(zg, t, DataCopyExtParams{{1, 4000, 0, 0, 0}});"""
    r = kernel(read.format(n=1008), {"x": x}, {"z": ("float32", (1000,))}).ok()
    np.testing.assert_array_equal(r.outputs["z"], x)
    # One block further the device reads whatever memory follows: an error in strict mode (the
    # test default), a warning otherwise (docs/simulator.md, checker verdicts).
    r = kernel(read.format(n=1016), {"x": x}, {"z": ("float32", (1000,))})
    assert (
        r.status == "RUNTIME_ERROR"
        and "GM read of 4064 bytes at x+0 runs past the buffer" in r.message
    )


def test_scalar_read_after_vector_wait_is_ordered_and_without_it_races(kernel):
    ordered = (
        GM
        + """LocalTensor<float> t(TPosition::VECIN, 0, 1024), o(TPosition::VECOUT, 4096, 1024);
  DataCopy(t, xg, 1024); SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  float v = t.GetValue(5); Duplicate(o, v, 1024);
  SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0); DataCopy(zg, o, 1024);"""
    )
    r = kernel(ordered, {"x": X}, OUT).ok()
    np.testing.assert_array_equal(r.outputs["z"], np.full(1024, X[5]))
    racy = ordered.replace("SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);", "")
    r = kernel(racy, {"x": X}, OUT)
    assert (
        r.status == "RACE_DETECTED"
        and "GetValue reads UB address 20" in r.message
        and "PIPE_MTE2" in r.message
    )


def test_copy_issued_after_a_scalar_wait_is_ordered_and_without_it_races(kernel):
    # The scalar unit issues every pipe's instructions in order: a DataCopy issued after
    # WaitFlag<V_S> starts after the vector work before the SetFlag, so it may overwrite the
    # source of that work. Without the wait the copy races the Adds still reading it.
    x = np.arange(2048, dtype=np.float32) - 700.25
    ordered = """GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 2048);
  GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 1024);
  LocalTensor<float> a(TPosition::VECIN, 0, 1024), b(TPosition::VECOUT, 4096, 1024);
  DataCopy(a, xg, 1024); SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Adds(b, a, 1.0f, 1024);
  SetFlag<HardEvent::V_S>(0); WaitFlag<HardEvent::V_S>(0);
  DataCopy(a, xg[1024], 1024); SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Add(b, b, a, 1024); SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(zg, b, 1024);"""
    r = kernel(ordered, {"x": x}, OUT).ok()
    np.testing.assert_array_equal(r.outputs["z"], (x[:1024] + np.float32(1)) + x[1024:])
    racy = ordered.replace("SetFlag<HardEvent::V_S>(0); WaitFlag<HardEvent::V_S>(0);", "")
    for strict in (True, False):  # no compiler sync between V and MTE2: a race in either mode
        r = kernel(racy, {"x": x}, OUT, strict=strict)
        assert (
            r.status == "RACE_DETECTED"
            and "DataCopy on PIPE_MTE2 writes UB [0, 32)" in r.message
            and "Adds at" in r.message
            and "PIPE_V may still be reading it" in r.message
        ), r.message


def test_scalar_and_dma_conflicts_are_ordered_by_the_compilers_sync_unless_strict(kernel):
    # The compiler inserts S <-> MTE2/MTE3 syncs itself (--cce-auto-sync, on by default): GetValue
    # straight after the copy that fills its buffer, and a copy out straight after SetValue, run
    # in order with a warning; the strict mode keeps both races.
    body = (
        GM
        + """LocalTensor<float> t(TPosition::VECIN, 0, 1024);
  DataCopy(t, xg, 1024);
  float v = t.GetValue(5);
  t.SetValue(6, v * 2.0f);
  DataCopy(zg, t, 1024);"""
    )
    r = kernel(body, {"x": X}, OUT, strict=False).ok()
    want = X.copy()
    want[6] = X[5] * 2
    np.testing.assert_array_equal(r.outputs["z"], want)
    warnings = r.result.get("warnings", [])
    assert any("PIPE_MTE2 -> PIPE_S sync the compiler inserts" in w for w in warnings), warnings
    assert any("PIPE_S -> PIPE_MTE3 sync the compiler inserts" in w for w in warnings), warnings
    r = kernel(body, {"x": X}, OUT)
    assert r.status == "RACE_DETECTED" and "GetValue reads UB address 20" in r.message, r.message


def test_copy_out_right_after_the_count_form_reduce_sum_is_ordered_by_its_own_sync(kernel):
    # On the A2 ReduceSum(dst, src, work, count) is one vcadd whose sum the library reads from
    # ACC_VAL after a V -> S sync, stores with the scalar unit and follows with S -> MTE3 (dav_c220
    # ReduceSumImpl): the copy of dst right after it is ordered. WholeReduceSum has no such sync.
    x = np.ones(1024, dtype=np.float32) / 4
    body = """GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 1024);
  GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 8);
  LocalTensor<float> a(TPosition::VECIN, 0, 1024), s(TPosition::VECOUT, 4096, 8), w(TPosition::VECCALC, 8192, 64);
  DataCopy(a, xg, 1024); SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Duplicate(s, 0.0f, 8);
  ReduceSum(s, a, w, 1024);
  DataCopy(zg, s, 8);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (8,))}).ok()
    assert r.outputs["z"][0] == 256
    racy = body.replace("ReduceSum(s, a, w, 1024);", "WholeReduceSum(s, a, 64, 1, 1, 1, 8);")
    r = kernel(racy, {"x": x}, {"z": ("float32", (8,))})
    assert (
        r.status == "RACE_DETECTED"
        and "DataCopy on PIPE_MTE3 reads UB [4096, 4128)" in r.message
        and "WholeReduceSum at" in r.message
    ), r.message
