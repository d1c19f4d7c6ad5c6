"""Every error the simulator reports, as a status with a message naming the call and sizes, and
the conditions the device tolerates: warned by default, an error when strict."""

import numpy as np
import pytest
from conftest import HOST

X = np.arange(1024, dtype=np.float32)
OUT = {"z": ("float32", (1024,))}
PIPE = "TPipe pipe; "
GM = "GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 1024); GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 1024);\n"

CASES = {
    "ub_over_capacity": (
        PIPE + "TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 200 * 1024);",
        "RUNTIME_ERROR",
        ["InitBuffer", "204800", "196352"],
    ),
    "vecin_over_8_tensors_held": (
        PIPE
        + "TQue<TPosition::VECIN, 1> q1, q2; pipe.InitBuffer(q1, 6, 256); pipe.InitBuffer(q2, 3, 256);"
        + " for (int i = 0; i < 6; ++i) q1.AllocTensor<float>();"
        + " for (int i = 0; i < 3; ++i) q2.AllocTensor<float>();",
        "RUNTIME_ERROR",
        ["9 tensors allocated at once on the VECIN position", "at most 8"],
    ),
    "vecin_over_64_buffers": (
        PIPE + "TQue<TPosition::VECIN, 1> q[9]; for (auto& qi : q) pipe.InitBuffer(qi, 8, 32);",
        "RUNTIME_ERROR",
        ["72 buffers on the VECIN position (at most 64 in a kernel)"],
    ),
    "local_index_out_of_range": (
        PIPE
        + "TBuf<> b; pipe.InitBuffer(b, 256); LocalTensor<float> t = b.Get<float>(); t.GetValue(64);",
        "RUNTIME_ERROR",
        ["GetValue index 64", "64 elements"],
    ),
    "vector_past_tensor": (
        PIPE
        + "TBuf<> b; pipe.InitBuffer(b, 1024); LocalTensor<float> t = b.Get<float>(); Add(t, t, t[128], 200);",
        "RUNTIME_ERROR",
        ["Add", "200 elements", "128"],
    ),
    "global_out_of_range": (
        PIPE + GM + "TBuf<> b; pipe.InitBuffer(b, 8192); DataCopy(b.Get<float>(), xg[512], 1024);",
        "RUNTIME_ERROR",
        ["DataCopy", "runs past the buffer", "x+2048"],
    ),
    "unaligned_ub_operand": (
        PIPE
        + "TBuf<> b; pipe.InitBuffer(b, 1024); LocalTensor<float> t = b.Get<float>(); Adds(t[3], t, 1.0f, 64);",
        "RUNTIME_ERROR",
        ["Adds", "not 32 B aligned"],
    ),
    "repeat_over_255": (
        PIPE + "TBuf<> b; pipe.InitBuffer(b, 160 * 1024); LocalTensor<float> t = b.Get<float>(); "
        "WholeReduceSum(t, t, 64, 300, 1, 1, 8);",
        "RUNTIME_ERROR",
        ["repeatTime 300 > 255"],
    ),
    "block_count_zero": (
        PIPE
        + GM
        + "TBuf<> b; pipe.InitBuffer(b, 4096); DataCopy(b.Get<float>(), xg, DataCopyParams{0, 1, 0, 0});",
        "RUNTIME_ERROR",
        ["blockCount 0 out of range"],
    ),
    "block_len_zero": (
        PIPE
        + GM
        + "TBuf<> b; pipe.InitBuffer(b, 4096); DataCopy(b.Get<float>(), xg, DataCopyParams{1, 0, 0, 0});",
        "RUNTIME_ERROR",
        ["blockLen 0 out of range"],
    ),
    "alloc_all_slots_in_use": (
        PIPE + "TQue<TPosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256); q.AllocTensor<float>(); "
        "q.AllocTensor<float>(); q.AllocTensor<float>();",
        "RUNTIME_ERROR",
        ["AllocTensor", "all 2 buffers", "deadlock"],
    ),
    "deque_empty": (
        PIPE + "TQue<TPosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256); q.DeQue<float>();",
        "RUNTIME_ERROR",
        ["DeQue on an empty queue"],
    ),
    "setflag_never_waited": (
        "SetFlag<HardEvent::MTE2_V>(EVENT_ID1);",
        "RUNTIME_ERROR",
        ["SetFlag(PIPE_MTE2 -> PIPE_V, id 1) never waited"],
    ),
    "waitflag_without_set": (
        "WaitFlag<HardEvent::V_MTE3>(0);",
        "RUNTIME_ERROR",
        ["no earlier SetFlag", "wait forever"],
    ),
    "ub_race_copy_then_compute": (
        PIPE + GM + "TBuf<> b; pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>(); "
        "DataCopy(t, xg, 1024); Adds(t[1024], t, 1.0f, 1024);",
        "RACE_DETECTED",
        ["Adds on PIPE_V reads UB", "DataCopy at", "PIPE_MTE2"],
    ),
    "ub_race_compute_then_copy_out": (
        PIPE + GM + "TBuf<> b; pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>(); "
        "Duplicate(t, 1.0f, 1024); DataCopy(zg, t, 1024);",
        "RACE_DETECTED",
        ["Duplicate at", "PIPE_V"],
    ),
    "gm_race_mte3_then_mte2": (
        PIPE + GM + "TBuf<> b; pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>(); "
        "DataCopy(t, xg, 1024); SetFlag<HardEvent::MTE2_MTE3>(0); WaitFlag<HardEvent::MTE2_MTE3>(0);"
        "DataCopy(zg, t, 1024); DataCopy(t[1024], zg, 1024);",
        "RACE_DETECTED",
        ["DataCopy on PIPE_MTE2 reads z+0", "PIPE_MTE3 may still be writing"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_status_and_message(kernel, name):
    body, status, fragments = CASES[name]
    r = kernel(body, {"x": X}, OUT)
    assert r.status == status, r.message
    for f in fragments:
        assert f in r.message, f"{f!r} not in {r.message!r}"
    assert (
        "simk.cpp:" in r.message
        or "SyncAll" in r.message
        or name == "ub_over_capacity"
        or "kernel" in r.message
    )


def test_flags_order_the_same_accesses(kernel):
    body = (
        PIPE
        + GM
        + """TBuf<> b; pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>();
  DataCopy(t, xg, 1024); SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Adds(t, t, 1.0f, 1024); TQueSync<PIPE_V, PIPE_MTE3> s; s.SetFlag(1); s.WaitFlag(1);
  DataCopy(zg, t, 1024); SetFlag<HardEvent::MTE3_MTE2>(2); WaitFlag<HardEvent::MTE3_MTE2>(2);
  DataCopy(t[1024], zg, 1024); pipe_barrier(PIPE_ALL);"""
    )
    r = kernel(body, {"x": X}, OUT).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 1)


def test_more_vecin_buffers_than_tensors_held(kernel):
    """Sixteen VECIN queues are fine when each tensor is freed before the next is allocated: the
    A2's limit of 8 is on tensors held at once on a position, not on the buffers a TPipe gives."""
    body = (
        PIPE
        + GM
        + """TQue<TPosition::VECIN, 1> q[16]; for (auto& qi : q) pipe.InitBuffer(qi, 1, 256);
  TBuf<> o; pipe.InitBuffer(o, 4096); LocalTensor<float> ot = o.Get<float>();
  for (int i = 0; i < 16; ++i) {
    LocalTensor<float> t = q[i].AllocTensor<float>(); DataCopy(t, xg[i * 64], 64); q[i].EnQue(t);
    t = q[i].DeQue<float>(); Adds(ot[i * 64], t, 1.0f, 64); q[i].FreeTensor(t);
  }
  pipe_barrier(PIPE_ALL); DataCopy(zg, ot, 1024);"""
    )
    r = kernel(body, {"x": X}, OUT).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 1)


@pytest.mark.parametrize("block_dim", [0, 70000])
def test_block_dim_out_of_range_is_tiling_error(kernel, block_dim):
    r = kernel("", {"x": X}, OUT, block_dim=block_dim)
    assert r.status == "TILING_ERROR" and "block dim" in r.message


def test_tiling_failure_and_oversized_tiling_data(kernel):
    failing = HOST.replace(
        "return ge::GRAPH_SUCCESS;\n}",
        "return *attrs->GetInt(3) == 1 ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;\n}",
    )
    r = kernel("", {"x": X}, OUT, host=failing, tiling_key=1)
    assert r.status == "TILING_ERROR" and "GRAPH_FAILED" in r.message
    big = HOST.replace(
        "ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());",
        "ctx->GetRawTilingData()->SetDataSize(1 << 20);",
    )
    r = kernel("", {"x": X}, OUT, host=big)
    assert r.status == "TILING_ERROR" and "exceeds the capacity" in r.message


def test_assert_in_kernel(kernel):
    r = kernel("ASSERT(GetBlockNum() == 2);", {"x": X}, OUT)
    assert r.status == "RUNTIME_ERROR" and "ASSERT(GetBlockNum() == 2) failed" in r.message


def test_assert_msg_in_kernel(kernel):
    r = kernel('ASSERT_MSG(GetBlockNum() == 2, "%d blocks", (int)GetBlockNum());', {"x": X}, OUT)
    assert r.status == "RUNTIME_ERROR" and "ASSERT_MSG(GetBlockNum() == 2) failed" in r.message


# ---- conditions the device runs through: warnings by default, errors in strict mode ------------
TOLERATED = {
    "vector footprint past the tensor, inside the UB": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(b, 1024);
  LocalTensor<float> t = a.Get<float>();
  Duplicate(t, 1.0f, 128);  // 512 bytes into a 256-byte buffer: the device writes on into b
""",
        "Duplicate: operand 0 touches 128 elements but the tensor has 64",
    ),
    "SetValue index past the tensor, inside the UB": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 32);
  pipe.InitBuffer(b, 64);
  a.Get<float>().SetValue(10, 1.0f);
""",
        "LocalTensor::SetValue index 10 out of range (tensor has 8 elements)",
    ),
    "a bit mask's high word with a 32-bit type": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 256);
  LocalTensor<float> t = a.Get<float>();
  const uint64_t mask[2] = {0xFFull, 1};  // a repeat of 32-bit lanes has 64: mask[1] names none
  Duplicate(t, 1.0f, mask, 1, 1, 8);
""",
        "bit mask high word 0x1 with a 32-bit type",
    ),
    "InitBuffer into the bytes the runtime reserves": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 196608);
""",
        "into the 256 bytes the runtime reserves",
    ),
    "a static LocalTensor into the bytes the runtime reserves": (
        "LocalTensor<float> top(TPosition::VECCALC, 196352, 64);",
        "bytes [196352, 196608), into the bytes the runtime reserves above 196352",
    ),
    "InitBuffer past the UB, its buffer never touched": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 160 * 1024);
  pipe.InitBuffer(b, 64 * 1024);  // a temp buffer a dtype branch of the kernel never uses
""",
        "InitBuffer of 1 x 65536 bytes needs UB [163840, 229376) but only 196352 bytes are available",
    ),
    "GM read past the buffer's padding": (
        """
  GlobalTensor<float> xg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 1024);
  DataCopy(a.Get<float>(), xg, 256);  // 1 KiB from a 64-element input
""",
        "runs past the buffer",
    ),
    "GM write past the buffer's padding, inside its allocator block": (
        """
  GlobalTensor<float> yg;
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 1024);
  Duplicate(a.Get<float>(), 2.0f, 128);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, a.Get<float>(), 96);  // 384 B into an 8-element output: its block is 512 B
  yg.SetValue(100, 3.0f);
""",
        "runs past the buffer's padding, inside its 512 B allocator block",
    ),
    "WholeReduceSum results past the destination, inside the UB": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 4096);
  pipe.InitBuffer(b, 32);
  Duplicate(a.Get<float>(), 1.0f, 1024);
  PipeBarrier<PIPE_V>();
  WholeReduceSum(b.Get<float>(), a.Get<float>(), 64, 16, 1, 1, 8);  // 16 sums into 8 elements
""",
        "WholeReduceSum: writes 16 elements, the destination has 8",
    ),
}


def test_device_tolerated_conditions_warn_by_default_and_fail_when_strict(kernel):
    x = np.ones(64, np.float32)
    for name, (body, text) in TOLERATED.items():
        lax = kernel(body, {"x": x}, {"y": ("float32", (8,))}, strict=False)
        assert lax.status == "OK", (name, lax.message)
        assert any(text in w for w in lax.result.get("warnings", [])), (name, lax.result)
        strict = kernel(body, {"x": x}, {"y": ("float32", (8,))})
        assert strict.status == "RUNTIME_ERROR" and text in strict.message, (name, strict.message)


def test_gm_write_past_the_allocator_block_stays_an_error(kernel):
    body = """
  GlobalTensor<float> yg;
  yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(128, 1.0f);  // byte 512 of an 8-element output: past its 512 B allocator block
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("float32", (8,))}, strict=False)
    assert r.status == "RUNTIME_ERROR" and "outside every GM buffer" in r.message, r.message


def test_an_access_past_the_ub_is_an_error_in_either_mode(kernel):
    body = """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 160 * 1024);
  pipe.InitBuffer(b, 64 * 1024);
  Duplicate(b.Get<float>(), 1.0f, 64);  // inside the UB: runs
  %s
"""
    x = np.zeros(8, np.float32)
    for touch in (
        "Duplicate(b.Get<float>()[8192], 1.0f, 64);",
        "b.Get<float>().SetValue(8200, 1.0f);",
    ):
        r = kernel(body % touch, {"x": x}, {"y": ("float32", (8,))}, strict=False)
        assert r.status == "RUNTIME_ERROR", (touch, r.message)
        assert "past the end of the 196608-byte UB" in r.message, r.message


def test_data_copy_past_its_tensor_inside_the_ub_is_device_tolerated(kernel):
    # The DMA takes a UB address, so copying more than a tensor's length (zero-length queue buffers
    # of a tiling that sized them 0, as cann-ops trunc does) runs on the device inside the UB.
    x = np.arange(64, dtype=np.float32)
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 512);
  GlobalTensor<float> xg, yg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  LocalTensor<float> a(TPosition::VECCALC, 0, 8);  // an 8-element tensor at the start of buf
  DataCopy(a, xg, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, a, 64);
"""
    lax = kernel(body, {"x": x}, {"y": ("float32", (64,))}, strict=False).ok()
    np.testing.assert_array_equal(lax.outputs["y"], x)
    assert any(
        "DataCopy GM->UB of 256 bytes into a 32-byte tensor" in w for w in lax.result["warnings"]
    )
    strict = kernel(body, {"x": x}, {"y": ("float32", (64,))})
    assert strict.status == "RUNTIME_ERROR" and "32-byte tensor" in strict.message


def test_trap_stops_the_kernel(kernel):
    body = "if (GetBlockIdx() == 0) { AscendC::Trap(); }"
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("float32", (8,))})
    assert r.status == "RUNTIME_ERROR" and "Trap" in r.message
