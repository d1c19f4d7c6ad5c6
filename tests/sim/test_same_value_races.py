"""A conflict whose write leaves the bytes the other access touches as they were (docs/simulator.md,
the race checker): add_rms_norm's pattern, a DataCopyPad reading the first 4 B of each 32 B block
out while an in-place Gather rewrites the blocks with nothing ordering the two. The Gather that
stores the same values into those 4 B (the rest of each block changes) cannot change what the
copy reads, so it is a counted warning; one that stores other values there races, and strict mode
keeps both races."""

import numpy as np
import pytest

X = np.arange(64, dtype=np.float32) * 1.5 + 0.25
OUT = {"z": ("float32", (8,))}


def body(lane: int) -> str:
    """Copy out lane 0 of each of t's eight blocks, then Gather lane `lane` of each block over it."""
    return f"""TPipe pipe; GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 64);
  GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 8);
  TBuf<> b; pipe.InitBuffer(b, 256); LocalTensor<float> t = b.Get<float>();
  TBuf<> o; pipe.InitBuffer(o, 256); LocalTensor<uint32_t> off = o.Get<uint32_t>();
  for (uint32_t i = 0; i < 64; ++i) off.SetValue(i, (i / 8) * 32 + {lane} * 4);
  DataCopy(t, xg, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopyPad(zg, t, DataCopyParams{{8, 4, 0, 0}});
  Gather(t, t, off, 0, 64);
  PipeBarrier<PIPE_ALL>();"""


def test_a_write_of_the_same_bytes_the_copy_reads_is_a_counted_warning(kernel):
    r = kernel(body(0), {"x": X}, OUT, strict=False).ok()
    np.testing.assert_array_equal(r.outputs["z"], X[::8])
    warning = [
        w for w in r.result.get("warnings", []) if "leaves every byte the other touches" in w
    ]
    assert len(warning) == 1, r.result.get("warnings")
    assert "Gather on PIPE_V writes UB [0, 32) while DataCopyPad at" in warning[0]
    assert "(8 such pairs on this core)" in warning[0], warning[0]


def test_a_write_of_other_values_into_those_bytes_races(kernel):
    r = kernel(body(1), {"x": X}, OUT, strict=False)
    assert r.status == "RACE_DETECTED", r.message
    assert "Gather on PIPE_V writes UB [0, 32) while DataCopyPad at" in r.message, r.message


@pytest.mark.parametrize("lane", [0, 1])
def test_strict_mode_keeps_both_races(kernel, lane):
    r = kernel(body(lane), {"x": X}, OUT, strict=True)
    assert r.status == "RACE_DETECTED", r.message
