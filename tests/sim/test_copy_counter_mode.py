"""Copy's counter mode (asc-devkit, Copy's constraints): unlike the other vector instructions, the
mask counts the lanes of each repeat and repeatTime counts, so one Copy broadcasts a block per row
(the idiom of production quantisation kernels); checked against numpy."""

import numpy as np
from conftest import UB_HELPERS

ROWS, ROW_LEN = 4, 256


def test_counter_mode_copy_broadcasts_one_block_per_row(kernel):
    """Brcb spreads one value per row over a 32 B block; the counter-mode Copy repeats once per row
    (dst repeat stride: a row), reading that block again and again (src block stride 0)."""
    v = np.array([1.5, -2.0, 3.25, 7.0, 0, 0, 0, 0], np.float32)
    body = f"""Ub ub;
  LocalTensor<float> a = ub.In<float>(x, 8), blocks = ub.Alloc<float>(64), o = ub.Alloc<float>({ROWS * ROW_LEN});
  SYNC(); Duplicate(o, -1.0f, {ROWS * ROW_LEN});
  Brcb(blocks, a, 1, {{1, 8}});
  PipeBarrier<PIPE_V>();
  SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>({ROW_LEN});
  Copy<float, false>(o, blocks, MASK_PLACEHOLDER, {ROWS}, {{1, 0, {ROW_LEN // 8}, 1}});
  SetMaskNorm(); ResetMask();
  SYNC(); ub.Out(z, o, {ROWS * ROW_LEN});"""
    r = kernel(body, {"x": v}, {"z": ("float32", (ROWS, ROW_LEN))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"], np.repeat(v[:ROWS, None], ROW_LEN, axis=1))


def test_counter_mode_copy_lanes_per_repeat_with_a_partial_block(kernel):
    """200 half lanes per repeat (12.5 blocks), 3 repeats 256 lanes apart, the mask given to the
    API (isSetMask): each repeat writes its first 200 lanes and leaves the rest."""
    x = np.arange(1024, dtype=np.float16)
    body = """Ub ub;
  LocalTensor<half> a = ub.In<half>(x, 1024), o = ub.Alloc<half>(1024);
  SYNC(); Duplicate(o, (half)-1, 1024);
  SetMaskCount();
  Copy(o, a, 200, 3, {1, 1, 16, 16});
  SetMaskNorm(); ResetMask();
  SYNC(); ub.Out(z, o, 1024);"""
    r = kernel(body, {"x": x}, {"z": ("float16", (1024,))}, prelude=UB_HELPERS).ok()
    want = np.full(1024, -1, np.float16)
    for row in range(3):
        want[row * 256 : row * 256 + 200] = x[row * 256 : row * 256 + 200]
    np.testing.assert_array_equal(r.outputs["z"], want)


def test_counter_mode_copy_is_charged_per_256_bytes(kernel):
    """4 repeats of 256 float lanes cost what 16 normal-mode repeats of 64 lanes do (the same mask
    register calls around each): the model charges a repeat of more than 256 B one pass per 256 B."""

    def latency(copy: str) -> float:
        body = f"""Ub ub;
  LocalTensor<float> a = ub.In<float>(x, 1024), o = ub.Alloc<float>(1024);
  SYNC();
  {copy}
  SYNC(); ub.Out(z, o, 1024);"""
        x = np.ones(1024, np.float32)
        r = kernel(body, {"x": x}, {"z": ("float32", (1024,))}, prelude=UB_HELPERS).ok()
        np.testing.assert_array_equal(r.outputs["z"], x)
        return r.result["latency_us"]

    counter = latency(
        "SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(256);"
        " Copy<float, false>(o, a, MASK_PLACEHOLDER, 4, {1, 1, 32, 32}); SetMaskNorm(); ResetMask();"
    )
    normal = latency(
        "SetMaskNorm(); SetVectorMask<float, MaskMode::NORMAL>(64);"
        " Copy<float, false>(o, a, MASK_PLACEHOLDER, 16, {1, 1, 8, 8}); SetMaskNorm(); ResetMask();"
    )
    assert counter == normal


def test_counter_mode_copy_repeat_larger_than_the_ub_is_a_runtime_error(kernel):
    """A mask register word of 2^40 lanes per repeat is refused before any lane is touched."""
    body = """Ub ub;
  LocalTensor<float> a = ub.In<float>(x, 64), o = ub.Alloc<float>(64);
  SYNC();
  SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(0, 1ull << 40);
  Copy<float, false>(o, a, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
  SetMaskNorm(); ResetMask();
  SYNC(); ub.Out(z, o, 64);"""
    r = kernel(body, {"x": np.ones(64, np.float32)}, {"z": ("float32", (64,))}, prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR" and "larger than the UB" in r.message, r.message
