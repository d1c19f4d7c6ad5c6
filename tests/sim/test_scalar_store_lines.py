"""Scalar GM stores from different cores into one 64 B cache line. A core's SetValue (or raw GM
pointer store) goes to its data cache, which writes whole 64 B lines back, so on the device a line
two cores write loses one core's bytes at random (asc-devkit, GlobalTensor SetValue: the cores'
addresses must be at least a cache line apart). The cross-core check compares such stores by line,
not by byte: the `cross` pattern (12-byte rows stored by neighbouring blocks) is a race, rows 64 B
apart are not."""

import numpy as np
from conftest import UB_HELPERS

X = np.arange(16 * 16, dtype=np.float32)

# Block b stores `ROW` floats of x, element by element, at z[b * PITCH]: its own bytes, no other's.
STORE_ROWS = """const int b = GetBlockIdx();
  GlobalTensor<float> in, out;
  in.SetGlobalBuffer((__gm__ float*)x); out.SetGlobalBuffer((__gm__ float*)z);
  for (int i = 0; i < {row}; ++i) out.SetValue(b * {pitch} + i, in.GetValue(b * {pitch} + i) + 1.0f);"""


def store_rows(kernel, row: int, pitch: int, blocks: int = 8):
    body = STORE_ROWS.format(row=row, pitch=pitch)
    return kernel(body, {"x": X}, {"z": ("float32", (X.size,))}, block_dim=blocks)


def test_scalar_rows_of_neighbouring_blocks_in_one_cache_line_race(kernel):
    # 3 floats (12 B) per block, packed: blocks 0-4 share the first 64 B line, as `cross` does.
    r = store_rows(kernel, row=3, pitch=3)
    assert r.status == "RACE_DETECTED", r.message
    assert "writing z+" in r.message and "share a 64 B cache line" in r.message
    assert "64 B apart" in r.message  # what the author can change


def test_scalar_rows_a_cache_line_apart_do_not_race(kernel):
    r = store_rows(kernel, row=3, pitch=16).ok()  # each block's row starts its own 64 B line
    z = r.outputs["z"].reshape(-1, 16)[:8, :3]
    np.testing.assert_array_equal(z, X.reshape(-1, 16)[:8, :3] + 1)


def test_a_scalar_store_beside_another_blocks_copy_in_one_line_races(kernel):
    # Block 0 copies z[0:8] out with DataCopy (32 B); block 1 stores z[8] with SetValue: different
    # bytes, one line. Block 1's line write-back carries its stale copy of z[0:8].
    body = """const int b = GetBlockIdx();
  GlobalTensor<float> out; out.SetGlobalBuffer((__gm__ float*)z);
  if (b == 0) { Ub ub; LocalTensor<float> a = ub.In<float>(x, 8); SYNC(); ub.Out(z, a, 8); }
  else out.SetValue(8, 1.0f);"""
    r = kernel(body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, prelude=UB_HELPERS)
    assert r.status == "RACE_DETECTED" and "share a 64 B cache line" in r.message, r.message


def test_scalar_stores_split_by_syncall_do_not_race(kernel):
    # Block 0 stores z[0], then every block meets at SyncAll, then block 1 stores z[1].
    body = """const int b = GetBlockIdx();
  GlobalTensor<float> out; out.SetGlobalBuffer((__gm__ float*)z);
  if (b == 0) { out.SetValue(0, 1.0f); DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(out); }
  SyncAll();
  if (b == 1) { out.SetValue(1, 2.0f); DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(out); }"""
    r = kernel(body, {"x": X}, {"z": ("float32", (16,))}, block_dim=2).ok()
    assert list(r.outputs["z"][:2]) == [1.0, 2.0]
