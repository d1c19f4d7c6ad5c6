"""Kernel forms official operators use (issue 52), each on both engines at one verdict and latency:
`__BLOCK_LOCAL__` (asc-devkit kernel_macros.h: `[[block_local]]`, a variable each AI core has its
own copy of; ops-nn mat_mul_v3 keeps its Matmul callbacks' context in one), `QuantMode_t` as the
device's plain enum (ops-nn conv3d_backprop_input_v2 names `NoQuant` unqualified), the library's
earlier `FixpipeParams<T>` (ops-math add_lora, ops-nn conv3d_backprop_input_v2), and the two-type
L1 -> bias table `DataCopy<T, U>` (cann-ops conv3dv2's `DataCopy<L0cT, BiasT>`)."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import Status
from tests.guest.test_data import add_with
from tests.guest.test_real_gaps import add_edited
from tests.guest.test_runtime_gaps import assert_guest_stops_past, matmul_with

# level1/add with its GM offset kept in a block-local variable across a SyncAll, and a block-local
# count of Init calls that scales it: were the variable shared, every block would read the last
# writer's offset (and a count past 1), and z would be wrong.
BLOCK_LOCAL = add_edited(
    (
        "constexpr int32_t BUFFER_NUM = 2;\n",
        "constexpr int32_t BUFFER_NUM = 2;\n"
        "struct Context {\n  uint32_t offset;\n  uint32_t calls;\n};\n"
        "__BLOCK_LOCAL__ __inline__ Context ctx;\n",
    ),
    (
        "    blockLength = block < formerNum ? formerLength : tailLength;\n",
        "    ctx.offset = offset;\n"
        "    ++ctx.calls;\n"
        "    SyncAll();\n"
        "    blockLength = block < formerNum ? formerLength : tailLength;\n",
    ),
    (
        "    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);\n"
        "    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);\n"
        "    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);\n",
        "    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + ctx.offset * ctx.calls, blockLength);\n"
        "    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + ctx.offset * ctx.calls, blockLength);\n"
        "    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + ctx.offset * ctx.calls, blockLength);\n",
    ),
)


def test_a_block_local_variable_is_each_block_s_own_on_both_engines(engines):
    engines.same(add_with(BLOCK_LOCAL))


# packages/cube_fill's Fixpipe of C to GM with its quantPre named as the device's kernels name it:
# unqualified, the device's values.
CUBE_FILL = Path(__file__).parent / "packages" / "cube_fill"
FIXPIPE = "  Fixpipe(gc, co, FixpipeParamsV220(n, n, n, n, false));\n"
UNQUALIFIED = (
    "  FixpipeParamsV220 unqualified(n, n, n, n, false);\n"
    "  unqualified.quantPre = NoQuant;\n"
    "  static_assert(F322F16 == 1 && REQ8 == 9 && DEQF16 == 11 && QuantMode_t::F322BF16 == 16 &&\n"
    '                QF322B8_PRE == 24, "the device\'s values");\n'
    "  Fixpipe(gc, co, unqualified);\n"
)


def test_quant_modes_are_the_device_s_plain_enum_on_both_engines(engines):
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    assert FIXPIPE in kernel
    fixpipe = engines.same(pkg)
    unqualified = engines.same(pkg.with_sources(kernel=kernel.replace(FIXPIPE, UNQUALIFIED)))
    assert unqualified.latency_us == fixpipe.latency_us


# The same ND Fixpipe by FixpipeParams<float> as add_lora spells it: n / 16 bursts of n rows (2n
# 32 B units of float), the row length as dstStride, NZ2ND with the original N.
LEGACY = (
    "  FixpipeParams<float> legacy;\n"
    "  legacy.cburstNum = n1;\n"
    "  legacy.burstLen = static_cast<uint16_t>(n * 16 * sizeof(float) / 32);\n"
    "  legacy.srcStride = 0;\n"
    "  legacy.dstStride = n;\n"
    "  legacy.quantParams = {QuantMode_t::NoQuant};\n"
    "  legacy.nz2ndParams = {true, 1, 0, 0, static_cast<uint16_t>(n)};\n"
    "  Fixpipe(gc, co, legacy);\n"
)


def test_fixpipe_params_of_the_earlier_form_are_the_v220_fixpipe_on_both_engines(engines):
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    fixpipe = engines.same(pkg)
    legacy = engines.same(pkg.with_sources(kernel=kernel.replace(FIXPIPE, LEGACY)))
    assert all(c.passed and c.max_abs_error == 0.0 for c in legacy.cases)
    assert legacy.latency_us == fixpipe.latency_us


def test_fixpipe_params_with_a_vector_quant_mode_stop_the_kernel(engines):
    # VDEQF16 reads its scales from an L1 workspace through the fixpipe buffer: not modelled.
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    vector = LEGACY.replace("QuantMode_t::NoQuant", "QuantMode_t::VDEQF16")
    native, guest = engines.both(pkg.with_sources(kernel=kernel.replace(FIXPIPE, vector)))
    for result in (native, guest):
        assert result.status is Status.RUNTIME_ERROR and "not modelled" in result.message, (
            result.message
        )


# L1 to the bias table by asc-devkit's two-type prototype: half widened to float, and the same type
# named twice (the same-type copy). 2 x 64 B rows of float from 2 x 32 halves.
BIAS_TWO_TYPES = (
    "  TBuf<TPosition::C1> l1;\n  TBuf<TPosition::C2> bt;\n"
    "  pipe.InitBuffer(l1, 4096);\n  pipe.InitBuffer(bt, 1024);\n"
    "  DataCopy<float, half>(bt.Get<float>(), l1.Get<half>(), DataCopyParams{ROWS, 1, 0, 0});\n"
    "  DataCopy<float, float>(bt.Get<float>()[64], l1.Get<float>(), DataCopyParams{2, 1, 0, 0});\n"
    "  PipeBarrier<PIPE_ALL>();\n"  # the Matmul's own L1 buffers start where l1 does
)


def test_a_two_type_copy_into_the_bias_table_matches_the_native_engine(engines):
    engines.same(matmul_with(BIAS_TWO_TYPES.replace("ROWS", "2")))


def test_a_two_type_copy_past_the_bias_table_stops_the_kernel(engines):
    # 20 rows of 64 B: 1280 B into the 1 KiB bias table.
    assert_guest_stops_past(engines, BIAS_TWO_TYPES.replace("ROWS", "20"), "bias-two-types-past")
