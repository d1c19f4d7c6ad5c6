"""The high-level APIs on the guest engine (ascendc_guest/adv.h, runtime/guest/api_adv.cpp): suite
kernels built on SoftMax, LayerNorm, RmsNorm, Sum/Mean and the pattern reductions get the native
engine's verdict and simulated latency; the math, index, Broadcast, CumSum and SelectWithBytesMask
APIs, which no suite kernel of ascend-ops-v1 calls, run in a kernel of our own; and shapes or tiling structs a kernel
forges stop the kernel, not the host."""

from __future__ import annotations

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import load_expert, resolve, roots

from .conftest import lean


def same_charge(engines, pkg, rel: float) -> None:
    """The guest engine's verdict is the native engine's, its vector time the same to rounding (each
    API call is the native function), its latency within `rel`: the kernel's own scalar work
    between the calls is counted in wasm instructions there and x86 ones here (docs/trust_boundary.md)."""
    native, guest = engines.both(pkg)
    assert native.status is Status.OK, native.message
    assert guest.status is Status.OK, guest.message
    assert all(c.passed for c in guest.cases)
    assert guest.profile.aiv_vec_time_us == pytest.approx(native.profile.aiv_vec_time_us, rel=1e-9)
    assert guest.latency_us == pytest.approx(native.latency_us, rel=rel)


# The expert kernels of ascend-ops-v1 that call the high-level APIs (their baselines do not). Two
# run a per-row scalar loop of their own (GetValue, a division, a Muls per row): with fuel charged at
# guest_fuel_cycles they are 1.1 % and 1.0 % apart (3.3 % and 8.1 % at the native engine's 0.5).
EXPERTS = [
    ("level2/softmax", 0.02),
    ("level2/log_softmax", 0.02),
    ("level2/layer_norm", 0.02),
    ("level2/add_layer_norm", 0.02),
    ("level2/rms_norm", 0.02),
    ("level2/reduce_sum_last", 0.02),
    ("level2/reduce_mean_last", 0.02),
    ("level2/reduce_max_last", 0.02),
    ("level2/l2_norm", 0.02),
    ("level2/cross_entropy", 0.02),
]


@pytest.mark.parametrize(("address", "rel"), lean(EXPERTS))
def test_expert_kernels_on_the_high_level_apis_match_the_native_engine(engines, address, rel):
    same_charge(engines, load_expert(address), rel)


@pytest.mark.skipif("ascend-real-v1" not in roots(), reason="ascend-real-v1 is not materialised")
def test_a_real_operator_on_sigmoid_gets_the_native_verdict_and_vector_time(engines):
    # silu_mul moves its rows element by element (GM GetValue / SetValue loops): its latency is
    # scalar time, 590.7 native and 593.0 us guest (simulated; 785.1 before guest_fuel_cycles), so
    # only the API's charge is held.
    native, guest = engines.both("op://ascend-real-v1/level2/silu_mul")
    assert native.status is Status.OK and guest.status is Status.OK, guest.message
    assert guest.profile.aiv_vec_time_us == pytest.approx(native.profile.aiv_vec_time_us, rel=1e-9)


# level1/sigmoid's kernel with its Compute done by the high-level math APIs (identities on the
# input range [-6, 6], then Sigmoid), and the index, Broadcast, CumSum, trigonometric and select APIs
# run on a work buffer whose zeros are added to the output: every import is charged and its result read.
SIGMOID_COMPUTE = """    Muls(t0, x, static_cast<T>(-1.0f), n);
    Exp(t0, t0, n);
    Adds(t0, t0, static_cast<T>(1.0f), n);
    Reciprocal(y, t0, n);"""
ADV_COMPUTE = """    ClampMax(t0, x, static_cast<T>(6.0f), n);
    ClampMin(t0, t0, static_cast<T>(-6.0f), n);
    Power(t0, t0, static_cast<T>(1.0f), n);
    Sigmoid(y, t0, n);
    LocalTensor<T> w = workBuf.Get<T>();
    LocalTensor<uint8_t> scratch = w[512].template ReinterpretCast<uint8_t>();
    ArithProgression<T>(w, static_cast<T>(0.0f), static_cast<T>(0.0f), 128);
    const uint32_t dstShape[2] = {4, 32}, srcShape[2] = {1, 32};
    Broadcast<T, 2, 0>(w[128], w, dstShape, srcShape);
    static constexpr CumSumConfig firstAxis{false, false, false};  // its buffer under the last axis's minimum
    CumSum<T, firstAxis>(w[256], w[384], w[128], scratch, CumSumInfo{4, 32});
    Sin(w[128], w[256], 128);
    Exp<T, 2>(w[256], w, 128);
    Adds(w[256], w[256], static_cast<T>(-1.0f), 128);
    Add(w[128], w[128], w[256], 128);
    SelectWithBytesMask(w[128], w[128], static_cast<T>(1.0f), w[256].template ReinterpretCast<uint8_t>(), scratch,
                        SelectWithBytesMaskShapeInfo{4, 32, 32});
    Add(y, y, w[128], n < 128 ? n : 128);"""


def adv_sigmoid(compute: str = ADV_COMPUTE):
    """level1/sigmoid with `compute` in place of its Compute and a 4 KB work buffer."""
    pkg = resolve("level1/sigmoid")
    text = pkg.files["op_kernel/sigmoid.cpp"]
    assert SIGMOID_COMPUTE in text
    text = text.replace(SIGMOID_COMPUTE, compute)
    text = text.replace(
        "    pipe.InitBuffer(tmpBuf0, tileLength * sizeof(T));",
        "    pipe.InitBuffer(tmpBuf0, tileLength * sizeof(T));\n    pipe.InitBuffer(workBuf, 4096);",
    )
    text = text.replace(
        "TBuf<QuePosition::VECCALC> tmpBuf0;", "TBuf<QuePosition::VECCALC> tmpBuf0, workBuf;"
    )
    return pkg.with_sources(kernel=text)


def test_the_math_index_broadcast_and_cumsum_apis_match_the_native_engine(engines):
    # Fifteen calls a tile: their arguments' set-up is scalar work, measured 2.9 % apart.
    same_charge(engines, adv_sigmoid(), 0.05)


# level1/sigmoid's kernel, then SoftmaxGrad and SoftmaxGradFront on 4 rows of 16: grad 2 and src 1/16
# give each row's sum(grad * src) 2, so SoftmaxGrad's (grad - 2) * src is 0 and the front's 2 less 2
# is 0; both added to the output, which holds only if each value is right.
SOFTMAX_GRAD_COMPUTE = f"""{SIGMOID_COMPUTE}
    LocalTensor<T> w = workBuf.Get<T>();
    const uint32_t front = 4 * 32 / sizeof(T), m = n < 64 ? n : 64, mf = n < front ? n : front;
    Duplicate(w, static_cast<T>(2.0f), 64);
    Duplicate(w[64], static_cast<T>(0.0625f), 64);
    SoftMaxTiling st{{}};
    const SoftMaxShapeInfo shape{{4, 16, 4, 16}};
    SoftmaxGrad<T>(w[128], w, w[64], w[256].template ReinterpretCast<uint8_t>(), st, false, shape);
    SoftmaxGradFront<T>(w[192], w, w[64], st, shape);
    Adds(w[192], w[192], static_cast<T>(-2.0f), front);
    Add(y, y, w[128], m);
    Add(y, y, w[192], mf);"""


def test_softmax_grad_matches_the_native_engine_with_its_values(engines):
    same_charge(engines, adv_sigmoid(SOFTMAX_GRAD_COMPUTE), 0.05)


# ---- forged arguments ---------------------------------------------------------------------------

ENTRY_BODY = "  GET_TILING_DATA(tilingData, tiling);"
WORK = (
    "  TPipe p;\n  TBuf<TPosition::VECCALC> b;\n  p.InitBuffer(b, 8192);\n"
    "  LocalTensor<half> t = b.Get<half>();\n"
    "  LocalTensor<uint8_t> s = t[2048].ReinterpretCast<uint8_t>();\n"
)
FORGED = {
    # A tiling struct whose rows are longer than their pitch: the native reads past the tensors.
    "layer_norm_tiling": (
        "  LayerNormTiling lt{};\n  lt.bLength = 1; lt.sLength = 1; lt.hLength = 16;\n"
        "  lt.originalHLength = 1u << 30;\n  LayerNorm<half>(t, t[256], t[512], t, t, t, s, half(0), lt);\n",
        "originalHLength",
    ),
    "rms_norm_tiling": (
        "  RmsNormTiling rt{};\n  rt.bLength = 1; rt.sLength = 1; rt.hLength = 16;\n"
        "  rt.originalHLength = 1u << 30;\n  RmsNorm<half>(t, t, t, half(1e-5f), rt);\n",
        "originalHLength",
    ),
    # A shape whose element count wraps in 32 bits.
    "broadcast_shape": (
        "  const uint32_t ds[2] = {65536, 65536}, ss[2] = {1, 1};\n  Broadcast<half, 2, 1>(t, t, ds, ss);\n",
        "beyond its buffer",
    ),
    "pattern_reduce_shape": (
        "  const uint32_t shape[2] = {1, 0xFFFFFFF0u};\n"
        "  ReduceSum<half, Pattern::Reduce::AR>(t, t, s, shape, true);\n",
        "exceeds the source",
    ),
    "select_mask_shape": (
        "  SelectWithBytesMask(t, t, half(0), s, s, SelectWithBytesMaskShapeInfo{1, 32, 0xFFFFFFE0u});\n",
        "beyond its buffer",
    ),
    # The last of no rows.
    "cumsum_rows": ("  CumSum<half>(t, t, t, s, CumSumInfo{0, 16});\n", "no rows"),
    # A sharedTmpBuffer past the UB, and a tiling struct outside the kernel's memory.
    "tmp_buffer": (
        "  LocalTensor<uint8_t> far(0xFFFFF000u, 4096, TPosition::VECCALC);\n  Sigmoid(t, t, far, 16);\n",
        "past",
    ),
    "tiling_address": (
        "  ascendc_guest::adv_softmax(ascendc_guest::SoftMaxForm(ascendc_guest::AdvSoftMax::kSoftMax, false),\n"
        "      ascendc_guest::Dtype::kF16, ascendc_guest::Dtype::kF16, 0, 256, 512, 16, 1024, 16, 0, 256, 4096,\n"
        "      1024, 1,\n"
        "      reinterpret_cast<const void*>(0x7FFFFFF0u), reinterpret_cast<const void*>(0x7FFFFFF0u), 1);\n",
        "outside the kernel's memory",
    ),
    "taylor_level": (
        "  ascendc_guest::adv_math(ascendc_guest::AdvMath::kExp, ascendc_guest::Dtype::kF16, 0, 256, 0, 256,\n"
        "      0, 0, 0, 1ll << 40, 256, 1);\n",
        "out of range",
    ),
}


@pytest.mark.parametrize("name", sorted(FORGED))
def test_forged_shapes_tiling_and_buffers_stop_the_kernel_not_the_host(engines, name):
    body, why = FORGED[name]
    pkg = resolve("level1/add")
    kernel = pkg.files["op_kernel/add.cpp"].replace(ENTRY_BODY, f"{ENTRY_BODY}\n{WORK}{body}", 1)
    result = engines.guest.evaluate(
        EvalRequest(
            run_id="forged-adv",
            package=pkg.with_sources(kernel=kernel),
            stages=[Stage.COMPILE, Stage.CHECK],
            timeouts=Timeouts(build_s=300, run_s=120),
        )
    )
    assert result.status is Status.RUNTIME_ERROR and why in result.message, result.message
