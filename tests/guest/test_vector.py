"""The vector elementwise family on the guest engine: the mask/repeat forms of the binary, unary,
vector-scalar, Duplicate, Cast and Axpy instructions, the mask state API and the bitwise and shift
instructions get the native engine's verdict and simulated latency; forged mask/repeat arguments
stop the kernel with a RUNTIME_ERROR."""

from __future__ import annotations

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import op_uris, resolve

ADD = resolve("level1/add")
KERNEL = ADD.files["op_kernel/add.cpp"]
COMPUTE = KERNEL[
    KERNEL.index("  __aicore__ inline void Compute(uint32_t len) {") : KERNEL.index(
        "  __aicore__ inline void CopyOut"
    )
]

# z = x + y, computed by one counter-mode Add on the mask registers, then kept through identities
# in the other forms: bit masks over the full repeats, continuous masks over the rest, the bitwise
# instructions on the raw bits, and (half) a Cast round trip through float in both mask modes.
MASK_FORMS = """  __aicore__ inline void Compute(uint32_t len) {
    using T = DTYPE_Z;
    using I = std::conditional_t<sizeof(T) == 2, int16_t, int32_t>;
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = inQueueY.DeQue<T>();
    LocalTensor<T> z = outQueueZ.AllocTensor<T>();
    constexpr uint32_t ALIGN = 32 / sizeof(T), PER_REPEAT = 256 / sizeof(T);
    const T zero = 0, one = 1;
    const I izero = 0;
    const uint32_t n = (len + ALIGN - 1) / ALIGN * ALIGN;
    const uint32_t full = n / PER_REPEAT, rest = n % PER_REPEAT, at = full * PER_REPEAT;
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, n);
    Add<T, false>(z, x, y, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    SetMaskNorm();
    ResetMask();
    uint64_t bits[2] = {~0ull, sizeof(T) == 2 ? ~0ull : 0ull};
    if (full) {
      Duplicate(y, zero, bits, full, 1, 8);
      Relu(y, y, bits, full, {1, 1, 8, 8});
      Sub(z, z, y, bits, full, {1, 1, 1, 8, 8, 8});
      Muls(z, z, one, bits, full, {1, 1, 8, 8});
      Axpy(z, y, zero, PER_REPEAT, full, {1, 1, 8, 8});
      AscendCUtils::SetMask<T>(PER_REPEAT);
      Maxs<T, false>(x, z, zero, bits, full, {1, 1, 8, 8});
    }
    if (rest) {
      Duplicate(y[at], zero, rest, 1, 1, 8);
      Add(z[at], z[at], y[at], rest, 1, {1, 1, 1, 8, 8, 8});
      Adds(z[at], z[at], zero, rest, 1, {1, 1, 8, 8});
    }
    LocalTensor<I> zi = z.template ReinterpretCast<I>();
    Not(zi, zi, n);
    if (full) Not(zi, zi, bits, full, {1, 1, 8, 8});
    if (rest) Not(zi[at], zi[at], rest, 1, {1, 1, 8, 8});
    And(zi, zi, zi, n);
    Or(zi, zi, zi, n);
    ShiftLeft(zi, zi, izero, n);
    if (full) ShiftRight(zi, zi, izero, PER_REPEAT, full, {1, 1, 8, 8});
    if constexpr (sizeof(T) == 2) {
      LocalTensor<float> w = work.Get<float>();
      SetMaskCount();
      SetVectorMask<float, MaskMode::COUNTER>(0, n);
      Cast<float, T, false>(w, z, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, {1, 1, 8, 4});
      SetMaskNorm();
      ResetMask();
      const uint32_t reps = n / 64;
      if (reps) Cast(z, w, RoundMode::CAST_NONE, 64, reps, {1, 1, 4, 8});
      if (n % 64) Cast(z[reps * 64], w[reps * 64], RoundMode::CAST_NONE, n % 64, 1, {1, 1, 4, 8});
    }
    outQueueZ.EnQue<T>(z);
    inQueueX.FreeTensor(x);
    inQueueY.FreeTensor(y);
  }
"""

# z = x + y again, through the other elementwise instructions: a counter-mode Copy, the
# dst-accumulating ones with ones and zeros, the ReLU-fused ones on zeros, and an index vector and a
# block broadcast multiplied away, a scalar Cast to 0 added, (half) a 16 x 16 block transposed twice.
OTHER_INSTRUCTIONS = """  __aicore__ inline void Compute(uint32_t len) {
    using T = DTYPE_Z;
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = inQueueY.DeQue<T>();
    LocalTensor<T> z = outQueueZ.AllocTensor<T>();
    constexpr uint32_t ALIGN = 32 / sizeof(T), PER_REPEAT = 256 / sizeof(T);
    const T zero = 0, one = 1;
    const uint32_t n = (len + ALIGN - 1) / ALIGN * ALIGN, full = n / PER_REPEAT;
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, n);
    Copy<T, false>(z, x, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    SetMaskNorm();
    ResetMask();
    Duplicate(x, one, n);
    MulAddDst(z, y, x, n);
    Duplicate(x, zero, n);
    Duplicate(y, one, n);
    FusedMulAdd(z, y, x, n);
    AddRelu(y, x, x, n);
    SubRelu(y, y, x, n);
    FusedMulAddRelu(y, x, y, n);
    CreateVecIndex(x, zero, n);
    Muls(x, x, zero, n);
    Add(z, z, x, n);
    SetDeqScale(static_cast<half>(1.0f));
    Adds(z, z, static_cast<T>(Cast<float, int32_t, RoundMode::CAST_ROUND>(0.4f)), n);
    if (full) {
      Brcb(y, x, full, {1, 8});
      Add(z, z, y, full * PER_REPEAT);
    }
    if constexpr (sizeof(T) == 2) {
      if (n >= 256) {
        Transpose(x, z);
        Transpose(z, x);
      }
    }
    outQueueZ.EnQue<T>(z);
    inQueueX.FreeTensor(x);
    inQueueY.FreeTensor(y);
  }
"""


def add_with(compute: str) -> str:
    """level1/add's kernel with its Compute replaced and a float work buffer beside its queues."""
    return (
        KERNEL.replace(COMPUTE, compute, 1)
        .replace(
            "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n",
            "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
            "    pipe.InitBuffer(work, tileLength * sizeof(float));\n",
            1,
        )
        .replace("  TPipe pipe;\n", "  TPipe pipe;\n  TBuf<TPosition::VECCALC> work;\n", 1)
    )


@pytest.mark.parametrize("compute", [MASK_FORMS, OTHER_INSTRUCTIONS], ids=["mask_forms", "other"])
def test_kernels_on_the_family_match_the_native_engine(engines, compute):
    engines.same(ADD.with_sources(kernel=add_with(compute)))


FORGED_IMPORT = (
    "    const BinaryRepeatParams p;\n"
    "    ascendc_guest::vec_binary_rep(ascendc_guest::Binary::kAdd, ascendc_guest::DtypeOf<T>(), z.UbAddr(),\n"
    "        z.GetSize(), x.UbAddr(), x.GetSize(), y.UbAddr(), y.GetSize(), {kind}, 64, 0, {repeat}, &p, 1);\n"
)


@pytest.mark.parametrize(
    "body, why",
    [
        # repeats whose stride walks past the UB: the native operand check
        ("    Add(z, x, y, 64, 255, {1, 1, 1, 255, 255, 255});\n", "past the end of the UB"),
        # a counter-mode lane count of 2^20
        (
            "    SetMaskCount();\n    SetVectorMask<T, MaskMode::COUNTER>(0, 1u << 20);\n"
            "    Add<T, false>(z, x, y, MASK_PLACEHOLDER, 1, {});\n",
            "past the end of the UB",
        ),
        # repeat parameters at an address outside the kernel's memory
        (
            "    Adds(z, x, one, 64, 1, *reinterpret_cast<const UnaryRepeatParams*>(0xFFFFFFF0u));\n",
            "outside the kernel's memory",
        ),
        # the import called directly: a repeat count no uint8_t holds, a mask kind no code names
        (
            FORGED_IMPORT.format(kind="ascendc_guest::MaskKind::kContinuous", repeat=1000),
            "repeatTime 1000",
        ),
        (
            FORGED_IMPORT.format(kind="static_cast<ascendc_guest::MaskKind>(7)", repeat=1),
            "mask kind code 7",
        ),
    ],
    ids=["past_ub", "counter_lanes", "params_pointer", "repeat", "mask_kind"],
)
def test_forged_mask_and_repeat_arguments_are_runtime_errors(engines, body, why):
    compute = MASK_FORMS.replace(
        "    const uint32_t n = (len + ALIGN - 1) / ALIGN * ALIGN;\n",
        "    const uint32_t n = (len + ALIGN - 1) / ALIGN * ALIGN;\n" + body,
        1,
    )
    request = EvalRequest(
        run_id="forged",
        package=ADD.with_sources(kernel=add_with(compute)),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=300),
    )
    result = engines.guest.evaluate(request)
    assert result.status is Status.RUNTIME_ERROR and why in result.message, result.message


def materialised(suite: str) -> bool:
    try:
        op_uris(suite, [1])
    except KeyError:
        return False
    return True


# Real operators whose kernels reach the guest engine only through this family's instructions.
# fast_gelu_grad is a 5.7 us kernel of count forms only, whose scalar work counted in wasm
# instructions comes to 2.2 % over the x86 count (5.853 against 5.727 us simulated).
@pytest.mark.skipif(not materialised("ascend-real-v1"), reason="ascend-real-v1 is not materialised")
@pytest.mark.parametrize("op, rel", [("level1/is_inf", 0.02), ("level2/fast_gelu_grad", 0.03)])
def test_real_kernels_on_the_family_match_the_native_engine(engines, op, rel):
    engines.same(f"op://ascend-real-v1/{op}", rel=rel)
