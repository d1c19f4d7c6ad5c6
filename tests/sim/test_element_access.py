"""Tensor memory only through charged paths: a kernel has no host view of a GlobalTensor or
LocalTensor (`Data()` is not kernel API), an element reference (`t(i)`) charges every read and
write as GetValue / SetValue do, and a pointer taken from one (`&t(0)`) is the kernel's guarded
view, whose accesses trap and are charged (test_guard.py); `LocalTensor::operator()` reads and
writes one element."""

import numpy as np
import pytest

N = 2048
X = np.arange(N, dtype=np.float32)
Y = np.full(N, 0.5, dtype=np.float32)
OUT = {"z": ("float32", (N,))}
HEAD = (
    "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0];\n"  # a runtime count: loops stay scalar
)
GM = (
    "GlobalTensor<float> xg, yg, zg; xg.SetGlobalBuffer((__gm__ float*)x, n); yg.SetGlobalBuffer((__gm__ float*)y, n); "
    "zg.SetGlobalBuffer((__gm__ float*)z, n);\n"
)
UB = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, N * 4); LocalTensor<float> a = b.Get<float>(); DataCopy(a, xg, n); PipeBarrier<PIPE_ALL>();\n"
UB_OUT = "PipeBarrier<PIPE_ALL>(); DataCopy(zg, a, n);"
PRE = f"constexpr int N = {N};"


def run(kernel, body: str):
    return kernel(HEAD + GM + body, {"x": X, "y": Y}, OUT, params=[N], prelude=PRE)


def latency(r) -> float:
    return r.ok().result["latency_us"]


def test_a_global_tensor_has_no_host_view(kernel):
    r = run(kernel, "float* h = xg.Data(); zg.SetValue(0, h[0]);")
    assert r.status == "COMPILE_ERROR", r.message
    assert "Data" in r.message, r.message


def test_a_local_tensor_has_no_host_view(kernel):
    r = run(kernel, UB + "a.Data()[0] = 1.0f;" + UB_OUT)
    assert r.status == "COMPILE_ERROR", r.message
    assert "Data" in r.message, r.message


def test_a_pointer_from_a_gm_element_is_charged_per_access(kernel):
    taken = run(
        kernel,
        "float* px = &xg(0); float* py = &yg(0); float* pz = &zg(0);\n"
        "for (int64_t i = 0; i < n; ++i) pz[i] = px[i] + py[i];",
    )
    api = run(
        kernel, "for (int64_t i = 0; i < n; ++i) zg.SetValue(i, xg.GetValue(i) + yg.GetValue(i));"
    )
    np.testing.assert_array_equal(taken.ok().outputs["z"], X + Y)
    assert latency(taken) == pytest.approx(latency(api), rel=0.3)


def test_a_pointer_from_a_ub_element_is_charged_per_access(kernel):
    taken = run(
        kernel,
        UB + "float* p = &a(0); for (int64_t i = 0; i < n; ++i) p[i] = p[i] * 2.0f;\n" + UB_OUT,
    )
    api = run(
        kernel,
        UB + "for (int64_t i = 0; i < n; ++i) a.SetValue(i, a.GetValue(i) * 2.0f);\n" + UB_OUT,
    )
    np.testing.assert_array_equal(taken.ok().outputs["z"], X * 2)
    assert latency(taken) == pytest.approx(latency(api), rel=0.3)


def test_element_reads_and_writes_are_charged_like_get_and_set_value(kernel):
    # A compound assignment is a scalar load and a scalar store, on GM and on UB.
    ref = run(
        kernel,
        UB + "for (int64_t i = 0; i < n; ++i) { a(i) *= 2.0f; zg(i) = yg(i); zg(i) += a(i); }\n",
    )
    api = run(
        kernel,
        UB
        + "for (int64_t i = 0; i < n; ++i) { a.SetValue(i, a.GetValue(i) * 2.0f); zg.SetValue(i, yg.GetValue(i));"
        " zg.SetValue(i, zg.GetValue(i) + a.GetValue(i)); }\n",
    )
    np.testing.assert_array_equal(ref.ok().outputs["z"], X * 2 + Y)
    assert latency(ref) == pytest.approx(latency(api), rel=0.3)


def test_element_references_work_in_scalar_expressions(kernel):
    # Mixed operand types (half with int and float), comparisons, increments and a copy between
    # elements, as real kernels write them.
    r = run(
        kernel,
        "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 64); LocalTensor<half> h = b.Get<half>(); LocalTensor<int32_t> c = "
        "b.Get<int32_t>()[8];\n"
        "h(0) = 3; h(1) = h(0) * 2 + 1.5f; c(0) = 7; c(0)++; --c(0); c(0) <<= 1; c(1) = -c(0);\n"
        "if (h(1) > h(0) && c(1) < 0) zg(0) = static_cast<float>(h(1)) + c(0) + c(1); zg(1) = zg(0);",
    )
    z = r.ok().outputs["z"]
    assert z[0] == 7.5 and z[1] == 7.5, z[:2]


def test_local_tensor_call_operator_reads_and_writes_one_element(kernel):
    body = """
  GlobalTensor<int32_t> xg, yg;
  xg.SetGlobalBuffer((__gm__ int32_t*)x);
  yg.SetGlobalBuffer((__gm__ int32_t*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 32);
  LocalTensor<int32_t> v = b.Get<int32_t>();
  DataCopy(v, xg, 8);
  SetFlag<HardEvent::MTE2_S>(0);
  WaitFlag<HardEvent::MTE2_S>(0);
  v(3) = v(1) + v(2);
  SetFlag<HardEvent::S_MTE3>(0);
  WaitFlag<HardEvent::S_MTE3>(0);
  DataCopy(yg, v, 8);
"""
    x = np.arange(8, dtype=np.int32) * 10
    r = kernel(body, {"x": x}, {"y": ("int32", (8,))}).ok()
    want = x.copy()
    want[3] = 30
    np.testing.assert_array_equal(r.outputs["y"], want)
