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
        and "exceed the 196352 B of UB" in r.message
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
