"""What orders a vector instruction against the DMA copies of the same UB bytes.

On the A2 (arch 2201) nothing inserts these syncs for the kernel: the compiler's automatic sync
(--cce-auto-sync) covers S <-> V, S <-> MTE2/MTE3 and V <-> V only, and MTE2 -> V, V -> MTE2/MTE3
and MTE3 -> V are left to the TPipe/TQue queues or the kernel's own flags (asc-devkit
docs/zh/api/SIMD-API/基础API/同步控制/核内同步/关键特性说明.md, table 3 and counterexample 1;
docs/simulator.md). Each of the syncs that does order the pair lets the kernel pass. An unflagged
pair is left to the simulated timeline (runtime/model/timed_order.h): a race where the second
access starts before the first is done (the copy in then Adds below: the 4 KB copy is still
landing), a device-tolerated warning where it starts after; strict mode keeps every one a race.
"""

import numpy as np
import pytest

X = np.arange(1024, dtype=np.float32) - 300.5
OUT = {"z": ("float32", (1024,))}
HEAD = """TPipe pipe; GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 1024);
  GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 1024);
  TBuf<> b; pipe.InitBuffer(b, 8192); LocalTensor<float> t = b.Get<float>();
  TQue<TPosition::VECIN, 1> q; pipe.InitBuffer(q, 1, 256);
"""
# The copy in, whatever stands between, the vector read of the copied bytes, the copy out.
COPY_IN = "DataCopy(t, xg, 1024);\n"
COMPUTE = """Adds(t[1024], t, 1.0f, 1024);
  SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0); DataCopy(zg, t[1024], 1024);"""
# Another queue's hop: EnQue is a SetFlag<MTE2_V>, which runs once every earlier MTE2 copy is done.
OTHER_QUEUE = "LocalTensor<float> u = q.AllocTensor<float>(); DataCopy(u, xg, 64); q.EnQue(u);\n"
DEQUE = "u = q.DeQue<float>(); q.FreeTensor(u);\n"

ORDERED = {
    "pipe_all_barrier": COPY_IN + "PipeBarrier<PIPE_ALL>();\n",
    "flag": COPY_IN + "SetFlag<HardEvent::MTE2_V>(1); WaitFlag<HardEvent::MTE2_V>(1);\n",
    # the scalar unit waits for MTE2 and issues the Adds only afterwards
    "scalar_wait": COPY_IN + "SetFlag<HardEvent::MTE2_S>(1); WaitFlag<HardEvent::MTE2_S>(1);\n",
    "deque_of_a_queue_enqueued_after_the_copy": COPY_IN + OTHER_QUEUE + DEQUE,
}
RACY = {
    "nothing": COPY_IN,
    "single_pipe_barriers": COPY_IN + "PipeBarrier<PIPE_MTE2>(); PipeBarrier<PIPE_V>();\n",
    "deque_of_a_queue_enqueued_before_the_copy": OTHER_QUEUE + COPY_IN + DEQUE,
}


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("name", sorted(ORDERED))
def test_syncs_that_order_a_copy_in_before_the_vector_read(kernel, name, strict):
    r = kernel(HEAD + ORDERED[name] + COMPUTE, {"x": X}, OUT, strict=strict).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + 1)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("name", sorted(RACY))
def test_vector_read_right_after_a_copy_in_races_in_either_mode(kernel, name, strict):
    r = kernel(HEAD + RACY[name] + COMPUTE, {"x": X}, OUT, strict=strict)
    assert r.status == "RACE_DETECTED", r.message
    assert "Adds on PIPE_V reads UB [0, 32) while DataCopy at" in r.message, r.message
    assert "on PIPE_MTE2 may still be writing it (no flag orders them)" in r.message, r.message


def test_a_scalar_read_of_the_copy_orders_it_by_the_compilers_sync_unless_strict(kernel):
    # GetValue of the copied buffer gets the compiler's MTE2 -> S sync; the scalar unit has then
    # waited for the copy, so the vector instruction it issues next follows it too.
    body = HEAD + COPY_IN + "float v = t.GetValue(3);\n" + COMPUTE.replace("1.0f", "v")
    r = kernel(body, {"x": X}, OUT, strict=False).ok()
    np.testing.assert_array_equal(r.outputs["z"], X + X[3])
    assert any(
        "PIPE_MTE2 -> PIPE_S sync the compiler inserts" in w for w in r.result.get("warnings", [])
    )
    r = kernel(body, {"x": X}, OUT, strict=True)
    assert r.status == "RACE_DETECTED" and "GetValue reads UB address 12" in r.message, r.message


@pytest.mark.parametrize("strict", [False, True])
def test_copy_out_right_after_the_vector_write_races_in_either_mode(kernel, strict):
    body = (
        HEAD
        + COPY_IN
        + "PipeBarrier<PIPE_ALL>(); Adds(t[1024], t, 1.0f, 1024); DataCopy(zg, t[1024], 1024);"
    )
    r = kernel(body, {"x": X}, OUT, strict=strict)
    assert r.status == "RACE_DETECTED", r.message
    assert "DataCopy on PIPE_MTE3 reads UB [4096, 4128) while Adds at" in r.message, r.message


# A Duplicate of the first 32 B, then their copy out with no V -> MTE3 flag; `BEFORE` runs ahead of
# the Duplicate, `BETWEEN` between it and the copy (GET_TILING_DATA's p[0] bounds a scalar loop).
def _duplicate_then_copy_out(before: str, between: str) -> str:
    return (
        HEAD
        + "GET_TILING_DATA(td, tiling);\n"
        + COPY_IN
        + "PipeBarrier<PIPE_ALL>();\n"
        + before
        + "Duplicate(t, 2.0f, 8);\n"
        + between
        + "DataCopyPad(zg, t, DataCopyExtParams{1, 32, 0, 0, 0});\n"
    )


LONG_VECTOR = "Adds(t[1024], t, 1.0f, 1024); Muls(t[1024], t[1024], 3.0f, 1024);\n"
# ~10^4 scalar instructions: the copy is issued long after the Duplicate is done.
SCALAR_WORK = """uint32_t acc = 1;
  for (int64_t i = 0; i < td.p[0]; ++i) acc = acc * 1103515245u + 12345u;
  if (acc == 0) Duplicate(t[64], 0.0f, 8);
"""


@pytest.mark.parametrize("strict", [False, True])
def test_copy_out_while_the_duplicate_waits_behind_a_long_vector_op_races(kernel, strict):
    r = kernel(_duplicate_then_copy_out(LONG_VECTOR, ""), {"x": X}, OUT, params=[0], strict=strict)
    assert r.status == "RACE_DETECTED", r.message
    assert "DataCopyPad on PIPE_MTE3 reads UB [0, 32) while Duplicate at" in r.message, r.message
    if not strict:  # decided on the timeline: the copy starts while the Duplicate has not run
        assert "in the simulated timeline it starts at cycle" in r.message, r.message


def test_copy_out_long_after_a_tiny_duplicate_is_ordered_by_timing_unless_strict(kernel):
    body = _duplicate_then_copy_out("", SCALAR_WORK)
    r = kernel(body, {"x": X}, OUT, params=[3000], strict=False).ok()
    np.testing.assert_array_equal(r.outputs["z"][:8], 2.0)
    warnings = [w for w in r.result.get("warnings", []) if "ordered only by timing" in w]
    assert len(warnings) == 1 and "1 pair(s)" in warnings[0], r.result.get("warnings")
    assert "DataCopyPad on PIPE_MTE3 reads UB [0, 32) while Duplicate at" in warnings[0]
    r = kernel(body, {"x": X}, OUT, params=[3000], strict=True)
    assert r.status == "RACE_DETECTED", r.message
    assert "may still be writing it (no flag orders them)" in r.message, r.message
    assert "timeline" not in r.message, r.message
