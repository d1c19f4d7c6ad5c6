"""The scalar unit: the kernel's own C++ (arithmetic, loops, address computation) is counted per
basic block at compile time and charged (backends/sim/scalar_count.py), so work moved from the
vector unit into plain scalar C++ is timed as the device runs it: slower."""

import numpy as np
import pytest

from npu_daemon.backends.sim.calibration.anchors import model_constants

N = 64  # one vector repeat of fp32
K = 256  # multiplications per element
X = np.linspace(0.5, 1.5, N, dtype=np.float32)
OUT = {"z": ("float32", (N,))}
HEAD = (
    "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0], k = t.p[1];\n"
    "GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x, n); zg.SetGlobalBuffer((__gm__ float*)z, n);\n"
    "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024); LocalTensor<float> a = b.Get<float>();\n"
    "DataCopy(a, xg, n); PipeBarrier<PIPE_ALL>();\n"
)
TAIL = "PipeBarrier<PIPE_ALL>(); DataCopy(zg, a, n);"
VECTOR = "for (int64_t j = 0; j < k; ++j) Muls(a, a, 1.0001f, n);\n"
SCALAR = (
    "for (int64_t i = 0; i < n; ++i) { float v = a.GetValue(i);"
    " for (int64_t j = 0; j < k; ++j) v *= 1.0001f; a.SetValue(i, v); }\n"
)


def run(kernel, body: str, k: int = K):
    return kernel(HEAD + body + TAIL, {"x": X}, OUT, params=[N, k])


def latency(r) -> float:
    return r.ok().result["latency_us"]


def expected(k: int) -> np.ndarray:
    v = X.copy()
    for _ in range(k):
        v = (v * np.float32(1.0001)).astype(np.float32)
    return v


def test_scalar_cpp_doing_the_vector_work_is_slower_than_the_vector_unit(kernel):
    vector, scalar = run(kernel, VECTOR), run(kernel, SCALAR)
    np.testing.assert_array_equal(vector.ok().outputs["z"], expected(K))
    np.testing.assert_array_equal(scalar.ok().outputs["z"], expected(K))
    # 64 x 256 dependent multiplications and their loop: at least one cycle each.
    assert latency(scalar) > 2 * latency(vector)
    assert latency(scalar) - latency(vector) > N * K / 1800  # us at 1.8 GHz


def test_the_kernels_own_instructions_are_charged_per_iteration(kernel):
    # Same scalar accesses, 4x the arithmetic: the difference grows with the loop's trip count.
    short, long_ = run(kernel, SCALAR, k=K // 4), run(kernel, SCALAR, k=K)
    cycles = (latency(long_) - latency(short)) * 1800
    assert 1.0 * N * (K - K // 4) < cycles < 8.0 * N * (K - K // 4), cycles


@pytest.mark.parametrize("body", [VECTOR, "Muls(a, a, 1.0001f, n);\n"])
def test_library_code_is_not_counted_as_the_kernels(kernel, body):
    # One vector instruction issued from one line: the emulation of Muls (a loop over lanes in
    # the library headers) costs the kernel no scalar instructions of its own. Against the same
    # kernel without it (its tiling copy and set-up are scalar work of the kernel's own).
    def scalar_us(body: str) -> float:
        return run(kernel, body, k=1).ok().result["profile"]["aiv_scalar_time_us"]

    assert scalar_us(body) - scalar_us("") < 0.05


READS = 1024
BIG = np.arange(READS * 16, dtype=np.float32)
WALK = (
    "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0], stride = t.p[1];\n"
    "GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x); zg.SetGlobalBuffer((__gm__ float*)z);\n"
    "float s = 0; for (int64_t i = 0; i < n; ++i) s += xg.GetValue(i * stride);\n"
)


def walk(kernel, stride: int, body: str = "") -> float:
    r = kernel(
        WALK + body + "zg.SetValue(0, s);",
        {"x": BIG},
        {"z": ("float32", (1,))},
        params=[READS, stride],
    )
    if not body:
        assert r.ok().outputs["z"][0] == np.cumsum(BIG[::stride][:READS], dtype=np.float32)[-1]
    return latency(r)


def test_sequential_scalar_gm_reads_hit_the_data_cache_and_strided_ones_miss(kernel):
    # Stride 1: a 64 B line serves 16 reads; stride 16: every read is another line.
    sequential, strided = walk(kernel, 1), walk(kernel, 16)
    assert strided > 5 * sequential, (sequential, strided)


def test_data_cache_clean_and_invalid_makes_the_next_reads_miss(kernel):
    # The walk leaves its 64 lines in the 16 KB cache; reading one element of each again hits,
    # unless the cache was cleaned and invalidated in between.
    again = "for (int64_t i = 0; i < 64; ++i) s += xg.GetValue(i * 16);\n"
    flush = "DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(xg);\n"
    kept, flushed = walk(kernel, 1, again), walk(kernel, 1, flush + again)
    assert flushed > kept + 64 * 150 / 1800, (kept, flushed)


# DataCachePreload (docs/performance_model.md, The scalar unit): the walk at a 64 B stride, each
# step preloading the line of the next step's read after its own read, as the asc-devkit sample does.
PRELOAD_WALK = (
    "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0], stride = t.p[1];\n"
    "GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x); zg.SetGlobalBuffer((__gm__ float*)z);\n"
    "GlobalTensor<uint64_t> lines; lines.SetGlobalBuffer((__gm__ uint64_t*)x);\n"
    "DataCachePreload(lines, int64_t{0});\n"
    "float s = 0; for (int64_t i = 0; i < n; ++i) { s += xg.GetValue(i * stride);"
    " DataCachePreload(lines, static_cast<int64_t>((i + 1) * stride * 4)); }\n"
    "zg.SetValue(0, s);"
)


def scalar_us(r) -> float:
    return r.ok().result["profile"]["aiv_scalar_time_us"]


def test_a_preloaded_line_is_read_after_its_fill_not_a_whole_miss(kernel):
    # Each read of the walk waits for what is left of its line's fill (dcache_preload_cycles from
    # the preload) instead of a miss (scalar_gm_access_cycles): the loop's few instructions between
    # preload and read aside, READS x (miss - fill) cycles saved.
    model = model_constants()
    saved = model["scalar_gm_access_cycles"] - model["dcache_preload_cycles"]
    out = {"z": ("float32", (1,))}
    plain = kernel(WALK + "zg.SetValue(0, s);", {"x": BIG}, out, params=[READS - 1, 16])
    preloaded = kernel(PRELOAD_WALK, {"x": BIG}, out, params=[READS - 1, 16])
    assert preloaded.ok().outputs["z"][0] == plain.ok().outputs["z"][0]
    cycles = (scalar_us(plain) - scalar_us(preloaded)) * 1800
    assert 0.9 * (READS - 1) * saved < cycles < (READS - 1) * (saved + 20), (cycles, saved)


def test_a_preload_past_the_busy_slots_blocks_and_loads_nothing(kernel):
    # `slots` back-to-back preloads fill in flight; one more is a NOP that waits for the oldest fill
    # (the API page: the reservation station congests), so its line still misses when read.
    model = model_constants()
    slots = model["dcache_preload_slots"]
    body = (
        "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0];\n"
        "GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x); zg.SetGlobalBuffer((__gm__ float*)z);\n"
        "GlobalTensor<uint64_t> lines; lines.SetGlobalBuffer((__gm__ uint64_t*)x);\n"
        "for (int64_t i = 0; i < n; ++i) DataCachePreload(lines, static_cast<int64_t>(i * 64));\n"
        "zg.SetValue(0, xg.GetValue((n - 1) * 16));"
    )

    def run(n: int) -> float:
        r = kernel(body, {"x": BIG}, {"z": ("float32", (1,))}, params=[n])
        assert r.ok().outputs["z"][0] == BIG[(n - 1) * 16]
        return scalar_us(r) * 1800

    within, past = run(slots), run(slots + 1)
    # within: the read waits for its fill; past: a wait for the oldest fill, then a whole miss.
    extra = model["scalar_gm_access_cycles"]
    assert 0.8 * extra < past - within < 1.3 * extra, (within, past)
