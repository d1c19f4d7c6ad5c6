"""Multi-core: GetBlockIdx per block, SyncAll with baton passing, atomics, cross-core GM races."""

import numpy as np
from conftest import UB_HELPERS

X = np.arange(8 * 64, dtype=np.float32)

# Each block sums its 64 elements into workspace[block]; after SyncAll block 0 adds the partials.
SYNC_REDUCE = """Ub ub; const int b = GetBlockIdx(), n = GetBlockNum();
  GlobalTensor<float> ws; ws.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), 8 * n);
  LocalTensor<float> a = ub.In<float>(x + b * 64 * sizeof(float), 64), s = ub.Alloc<float>(8), w = ub.Alloc<float>(64);
  SYNC(); Duplicate(s, 0.0f, 8); ReduceSum(s, a, w, 64); SYNC();
  DataCopy(ws[8 * b], s, 8);
  SyncAll();
  if (b == 0) {
    LocalTensor<float> p = ub.Alloc<float>(8 * n), t = ub.Alloc<float>(8);
    DataCopy(p, ws, 8 * n); SYNC();
    Duplicate(t, 0.0f, 8);
    for (int i = 0; i < n; ++i) t.SetValue(0, t.GetValue(0) + p.GetValue(8 * i));
    SYNC(); ub.Out(z, t, 8);
  }"""


def test_syncall_cross_core_reduction(kernel):
    r = kernel(
        SYNC_REDUCE,
        {"x": X},
        {"z": ("float32", (8,))},
        block_dim=8,
        workspace=1024,
        prelude=UB_HELPERS,
    ).ok()
    assert r.outputs["z"][0] == X.sum()
    assert r.result["block_dim"] == 8


def test_syncall_reached_by_only_some_blocks_is_a_deadlock(kernel):
    body = "if (GetBlockIdx() != 3) SyncAll();"
    r = kernel(body, {"x": X}, {"z": ("float32", (8,))}, block_dim=4)
    assert r.status == "RUNTIME_ERROR" and "1 of 4 blocks ended without reaching it" in r.message


def test_a_block_failing_after_syncall_ends_the_launch_with_its_error(kernel):
    # Every block passes SyncAll, then block 0 fails before block 1 has resumed: block 1 is
    # unwound (the launch used to hang on it) and the launch reports block 0's error.
    body = """SyncAll();
  if (GetBlockIdx() == 0) { GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float*)z); g.SetValue(1 << 20, 1.0f); }"""
    r = kernel(body, {"x": X}, {"z": ("float32", (8,))}, block_dim=2)
    assert r.status == "RUNTIME_ERROR" and "block 0" in r.message


def test_syncall_with_more_blocks_than_cores(kernel):
    r = kernel("SyncAll();", {"x": X}, {"z": ("float32", (8,))}, block_dim=64)
    assert r.status == "RUNTIME_ERROR" and "64 blocks on 40 vector cores" in r.message


ATOMIC = """Ub ub; const int b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x + b * 64 * sizeof(float), 64);
  SYNC();
  GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 64);
  SetAtomic%s<float>(); DataCopy(zg, a, 64); SetAtomicNone();"""


def test_atomic_add_and_max_from_every_block(kernel):
    # The output starts as 0xFF bytes (NaN): block 0 seeds it, then every block updates it atomically.
    seed = """GlobalTensor<float> zg0; zg0.SetGlobalBuffer((__gm__ float*)z, 64);
  if (GetBlockIdx() == 0) { TPipe p0; TBuf<> t0; p0.InitBuffer(t0, 256); LocalTensor<float> zero = t0.Get<float>();
    Duplicate(zero, %s, 64); PipeBarrier<PIPE_ALL>(); DataCopy(zg0, zero, 64); }
  SyncAll();
"""
    for op, init, want in [
        ("Add", "0.0f", X.reshape(8, 64).sum(0)),
        ("Max", "-1e30f", X.reshape(8, 64).max(0)),
        ("Min", "1e30f", X.reshape(8, 64).min(0)),
    ]:
        body = (seed % init) + ATOMIC % op
        r = kernel(body, {"x": X}, {"z": ("float32", (64,))}, block_dim=8, prelude=UB_HELPERS).ok()
        np.testing.assert_array_equal(r.outputs["z"], want, err_msg=op)


def test_overlapping_plain_writes_from_two_blocks_race(kernel):
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 64); SYNC(); ub.Out(z, a, 64);"""
    r = kernel(body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, prelude=UB_HELPERS)
    assert r.status == "RACE_DETECTED", r.message
    assert (
        "block 0 writing z+0" in r.message
        and "block 1 writing z+0" in r.message
        and "SyncAll" in r.message
    )


def test_blocks_writing_identical_bytes_warn_by_default(kernel):
    # Both blocks copy x[0:64] to z[0:64]: on the device the content is the same whichever lands
    # last, so the default mode warns and the strict mode (above) keeps RACE_DETECTED.
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 64); SYNC(); ub.Out(z, a, 64);"""
    for blocks in (2, 8):
        r = kernel(
            body,
            {"x": X},
            {"z": ("float32", (64,))},
            block_dim=blocks,
            prelude=UB_HELPERS,
            strict=False,
        ).ok()
        np.testing.assert_array_equal(r.outputs["z"], X[:64])
        warnings = r.result.get("warnings", [])
        assert any("block 1 writing z+0" in w and "bytes GM already held" in w for w in warnings), (
            warnings
        )


def test_blocks_writing_differing_bytes_race_in_default_mode(kernel):
    # Same place, different bytes (block b copies x[64 b:64 b + 64]): the result depends on the order.
    body = """Ub ub; const int b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x + b * 64 * sizeof(float), 64); SYNC(); ub.Out(z, a, 64);"""
    r = kernel(
        body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, prelude=UB_HELPERS, strict=False
    )
    assert r.status == "RACE_DETECTED" and "block 1 writing z+0" in r.message, r.message


def test_identical_write_before_a_differing_one_races(kernel):
    # Block 0 writes x[0:64]; block 1 first writes it again (same bytes), then x[64:128] over it:
    # the second write differs from block 0's, so the order matters.
    body = """Ub ub; const int b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x, 128); SYNC();
  ub.Out(z, a, 64);
  if (b == 1) { PipeBarrier<PIPE_ALL>(); ub.Out(z, a[64], 64); }"""
    r = kernel(
        body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, prelude=UB_HELPERS, strict=False
    )
    assert r.status == "RACE_DETECTED" and "block 1 writing z+0" in r.message, r.message


def test_read_of_another_blocks_output_without_syncall_races(kernel):
    body = """Ub ub; const int b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x, 64); SYNC();
  if (b == 0) ub.Out(z, a, 64); else { LocalTensor<float> c = ub.In<float>(z, 64); SYNC(); }"""
    r = kernel(body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, prelude=UB_HELPERS)
    assert r.status == "RACE_DETECTED" and "block 1 reading z+0" in r.message


def test_disjoint_writes_and_shared_reads_do_not_race(kernel):
    body = """Ub ub; const int b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x, 512); SYNC();
  ub.Out(z + b * 64 * sizeof(float), a[b * 64], 64);"""
    r = kernel(body, {"x": X}, {"z": ("float32", (512,))}, block_dim=8, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"], X)


# Every block atomically adds its 64 elements into workspace[0:64]; block 0 then copies that out.
# `%s` is where the kernel may zero the workspace first (block 0, before a SyncAll).
WS_ACCUMULATE = """Ub ub; const int b = GetBlockIdx();
  GlobalTensor<float> ws; ws.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), 64);
  %s
  LocalTensor<float> a = ub.In<float>(x + b * 64 * sizeof(float), 64);
  SYNC();
  SetAtomicAdd<float>(); DataCopy(ws, a, 64); SetAtomicNone();
  SyncAll();
  if (b == 0) { LocalTensor<float> t = ub.Alloc<float>(64); DataCopy(t, ws, 64); SYNC(); ub.Out(z, t, 64); }"""


def test_the_workspace_starts_uninitialised_as_on_the_device(kernel):
    # The runtime hands out the workspace as aclrtMalloc returns it, not zeroed: accumulating into
    # it without zeroing it gives the fill (NaN) here, garbage on the device.
    run = dict(inputs={"x": X}, outputs={"z": ("float32", (64,))}, block_dim=8, workspace=1024)
    unzeroed = kernel(WS_ACCUMULATE % "", prelude=UB_HELPERS, **run).ok()
    assert np.isnan(unzeroed.outputs["z"]).all()
    zero = "if (b == 0) InitGlobalMemory(ws, 64, 0.0f); SyncAll();"
    zeroed = kernel(WS_ACCUMULATE % zero, prelude=UB_HELPERS, **run).ok()
    np.testing.assert_array_equal(zeroed.outputs["z"], X.reshape(8, 64).sum(0))
