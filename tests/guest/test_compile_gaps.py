"""Compile gaps of the development corpus on the guest engine (issue 50): API forms real operators
use that compiled natively but not for the guest: DataCopy with SliceInfo (eye_fp64), the
launch's parameter block (get_para_base: gcd), list-tensor descriptors (split_v), int4b_t tensors,
their Cast (turbo_quant_compress_latent) and copies (swi_glu_quant), Gatherb (grid_sample), the
device compiler's branch hints, InitSocState and LocalTensors at fixed addresses. Each runs with
the native engine's verdict and simulated latency; a forged argument stops the kernel
(RUNTIME_ERROR), never a read or write of the host's memory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from npu_daemon.backends.common import build, kernel_view
from npu_daemon.backends.sim import guest_build
from tests.guest.test_data import add_with
from tests.guest.test_real_gaps import add_edited

# x and z move as two piece rows of half a tile each (dims 2: a row's elements, then the rows),
# where a half tile is whole 32 B blocks; y as before. z = x + y either way.
SLICE = "{{0, h - 1, 0, bl, h}, {0, 1, 0, 1, 2}}"
SLICED = add_edited(
    (
        "      DataCopy(xLocal, xGm[offset], len);\n",
        "      const uint32_t h = len / 2, bl = h * sizeof(DTYPE_X) / 32;\n"
        "      if (h * sizeof(DTYPE_X) % 32 == 0 && unlikely(bl > 0)) {\n"
        f"        SliceInfo gs[] = {SLICE}, us[] = {SLICE};\n"
        "        DataCopy(xLocal, xGm[offset], us, gs, 2);\n"
        "      } else {\n"
        "        DataCopy(xLocal, xGm[offset], len);\n"
        "      }\n",
    ),
    (
        "      DataCopy(zGm[offset], zLocal, len);\n",
        "      const uint32_t h = len / 2, bl = h * sizeof(DTYPE_Z) / 32;\n"
        "      if (likely(h * sizeof(DTYPE_Z) % 32 == 0 && bl > 0)) {\n"
        f"        SliceInfo gs[] = {SLICE}, us[] = {SLICE};\n"
        "        DataCopy(zGm[offset], zLocal, gs, us, 2);\n"
        "      } else {\n"
        "        DataCopy(zGm[offset], zLocal, len);\n"
        "      }\n",
    ),
)


def test_slice_copies_and_branch_hints_match_the_native_engine(engines):
    engines.same(add_with(SLICED))


# A kernel's own constants named as <limits.h>'s macros (ops-nn's gather_elements_v2 defines
# INT_MAX, which the device's API headers leave free): the guest API's header leaves them free as
# the native engine's does, and a kernel's own <climits>, before or after it, still defines them.
LIMITS = {
    "own-names": '#include "kernel_operator.h"\nconstexpr int64_t INT_MAX = 1;\nconstexpr int PATH_MAX = 2;\n',
    "climits-after": '#include "kernel_operator.h"\n#include <climits>\nstatic_assert(INT_MAX > 0);\n',
    "climits-before": '#include <climits>\n#include "kernel_operator.h"\nstatic_assert(UINT_MAX > 0);\n',
    "limits-h-after": '#include "kernel_operator.h"\n#include <limits.h>\nstatic_assert(CHAR_BIT == 8);\n',
    # What the precompiled header and a tiling view include after the API, then <iostream>.
    "with-the-tiling-view": "\n".join(
        [
            '#include "kernel_operator.h"',
            *kernel_view.tiling_header_includes(),
            "#include <iostream>",
        ]
    )
    + "\nconstexpr int64_t INT_MAX = 1;\nconstexpr int CHAR_BIT = 2;\n",
}


@pytest.mark.parametrize("source", LIMITS.values(), ids=LIMITS.keys())
def test_limits_macro_names_are_the_kernels_own(source, tmp_path):
    compiles_on_both(source, tmp_path)


def test_the_cce_scratch_names_compile_on_both_engines(tmp_path):
    # arg_max_with_value's vsel descriptor sits at the library's scratch address.
    compiles_on_both(
        '#include "kernel_operator.h"\n'
        "static_assert(AscendC::TMP_UB_OFFSET == 184 * 1024);\n"
        "uint64_t Bits(half h) { return AscendC::GetScalarBitcodeValue(h); }\n",
        tmp_path,
    )


def compiles_on_both(source: str, tmp_path) -> None:
    """`source` compiles against the guest API's headers and the native engine's."""
    try:
        guest_build.toolchain_version()
    except guest_build.GuestToolchainMissing as e:  # .ci/run installs it
        pytest.skip(str(e))
    (tmp_path / "k.cpp").write_text(source)
    guest = [guest_build.CLANG, *guest_build.FLAGS, *guest_build.INCLUDES, "-fsyntax-only", "k.cpp"]
    native = [build.CXX, *build.KERNEL_CXXFLAGS, *build.INCLUDE_FLAGS, "-fsyntax-only", "k.cpp"]
    for cmd in (guest, native):
        done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]


def forged(body: str, engines) -> str:
    entry = "  GET_TILING_DATA(tilingData, tiling);\n"
    setup = (
        "  TPipe p;\n  TBuf<QuePosition::VECCALC> b;\n  p.InitBuffer(b, 1024);\n"
        "  LocalTensor<float> t = b.Get<float>();\n"
        "  GlobalTensor<float> g;\n  g.SetGlobalBuffer((__gm__ float*)x, 64);\n"
    )
    request = EvalRequest(
        run_id="forged",
        package=add_with(add_edited((entry, entry + setup + body))),
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    result = engines.guest.evaluate(request)
    assert result.status is Status.RUNTIME_ERROR, result.message
    return result.message


@pytest.mark.parametrize(
    "slices, why",
    [
        # rows far past the local buffer (the emulation checks only the whole UB, in 32 bits)
        ("{{0, 7, 0, 1, 8}, {0, 1, 0x7fffffff, 1, 2}}", "overflows 32 bits"),
        ("{{0, 7, 0, 1, 8}, {0, 1000, 0, 1, 1001}}", "buffer"),
        # a stride whose 32-bit sum wraps to a zero divisor
        ("{{0, 7, 0xfffffff8, 1, 8}, {0, 0, 0, 1, 1}}", "overflows 32 bits"),
        ("{{0, 7, 0, 1, 8}, {0, 0, 0xffffffff, 1, 1}}", "overflows 32 bits"),
    ],
)
def test_forged_slices_stop_the_kernel(engines, slices, why):
    body = f"  SliceInfo s[] = {slices};\n  DataCopy(t, g, s, s, 2);\n"
    message = forged(body, engines)
    assert why in message, message


def test_a_slice_past_its_gm_buffer_stops_the_kernel(engines):
    # GM rows 2^20 elements apart: the second lies in no buffer the tensor names
    body = (
        "  SliceInfo u[] = {{0, 7, 0, 1, 8}, {0, 1, 0, 1, 2}};\n"
        "  SliceInfo s[] = {{0, 7, 0, 1, 1u << 20}, {0, 1, 0, 1, 2}};\n"
        "  DataCopy(t, g, u, s, 2);\n"
    )
    assert "GM" in forged(body, engines)


# The entry takes its GM addresses and its tiling from the launch's parameter block, as gcd does.
PARA_BASE = add_edited(
    (
        "  GET_TILING_DATA(tilingData, tiling);\n  KernelAdd op;\n"
        "  op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, "
        "tilingData.formerLength, tilingData.tailLength,\n"
        "          tilingData.tileLength);\n",
        "  GM_ADDR* params = reinterpret_cast<GM_ADDR*>(get_para_base());\n"
        "  const AddTilingData* t = reinterpret_cast<const AddTilingData*>(params + 5);\n"
        "  KernelAdd op;\n"
        "  op.Init(params[0], params[1], params[2], t->totalLength, t->formerNum, "
        "t->formerLength, t->tailLength,\n"
        "          t->tileLength);\n",
    )
)


def test_the_parameter_block_matches_the_native_engine(engines):
    engines.same(add_with(PARA_BASE))


def add_with_buffer(buf: str, init: str) -> str:
    """level1/add's kernel with a TBuf `buf` of its own and the lines `init` at the end of Init,
    ahead of the compute (which then overwrites z)."""
    return add_edited(
        (
            "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n  }\n",
            "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
            + init
            + "  }\n",
        ),
        (
            "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n",
            f"  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n  TBuf<QuePosition::VECCALC> {buf};\n",
        ),
    )


# Every int4b_t value through half and back (Cast both ways, the nibbles set and read by the
# scalar unit): a value that does not come back stops the kernel.
INT4 = add_with_buffer(
    "int4Buf",
    "    pipe.InitBuffer(int4Buf, 96);\n"
    "    LocalTensor<half> h = int4Buf.Get<half>(16);\n"
    "    LocalTensor<int4b_t> q = int4Buf.Get<uint8_t>()[32].ReinterpretCast<int4b_t>();\n"
    "    LocalTensor<int4b_t> back = q[64];\n"
    "    for (int32_t k = 0; k < 16; ++k) q.SetValue(k, int4b_t(k - 8));\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    Cast(h, q, RoundMode::CAST_NONE, 16);\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 16; ++k) if (static_cast<float>(h.GetValue(k)) != k - 8) Trap();\n"
    "    Cast(back, h, RoundMode::CAST_RINT, 16);\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 16; ++k) if (static_cast<int8_t>(back.GetValue(k)) != k - 8) Trap();\n"
    "    PipeBarrier<PIPE_ALL>();\n",
)


def test_int4_casts_and_nibbles_match_the_native_engine(engines):
    engines.same(add_with(INT4))


# int4b_t nibbles through GM and back, in the count and the DataCopyPad forms, at an element offset
# of both tensors (64 nibbles: byte 32): a copy moves bytes, two elements each.
INT4_GM = add_with_buffer(
    "int4Buf",
    "    pipe.InitBuffer(int4Buf, 128);\n"
    "    if (blockLength * sizeof(DTYPE_Z) < 64) return;\n"
    "    LocalTensor<int4b_t> q = int4Buf.Get<uint8_t>().ReinterpretCast<int4b_t>();\n"
    "    LocalTensor<int4b_t> back = q[128];\n"
    "    for (int32_t k = 0; k < 128; ++k) q.SetValue(k, int4b_t((k * 5 + k / 16) % 16 - 8));\n"
    "    GlobalTensor<int4b_t> zq;\n"
    "    zq.SetGlobalBuffer((__gm__ int4b_t*)(z + offset * sizeof(DTYPE_Z)), blockLength * 2 * sizeof(DTYPE_Z));\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    DataCopy(zq, q, 64);\n"
    "    DataCopyPad(zq[64], q[64], DataCopyExtParams{1, 32, 0, 0, 0});\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    DataCopy(back, zq, 128);\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 128; ++k)\n"
    "      if (static_cast<int8_t>(back.GetValue(k)) != (k * 5 + k / 16) % 16 - 8) Trap();\n"
    "    DataCopyPad(back, zq[64], DataCopyExtParams{1, 32, 0, 0, 0}, DataCopyPadExtParams<int4b_t>{false, 0, 0, 0});\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 64; ++k)\n"
    "      if (static_cast<int8_t>(back.GetValue(k)) != ((k + 64) * 5 + (k + 64) / 16) % 16 - 8) Trap();\n"
    "    PipeBarrier<PIPE_ALL>();\n",
)


def test_int4_tensors_copied_through_gm_match_the_native_engine(engines):
    engines.same(add_with(INT4_GM))


# Gatherb: blocks of a uint16 source in reverse order, at the documented {dstBlkStride,
# dstRepStride} = {1, 8}, read back by the scalar unit; a block out of place stops the kernel.
GATHERB = add_with_buffer(
    "gatherBuf",
    "    pipe.InitBuffer(gatherBuf, 1088);\n"
    "    LocalTensor<uint16_t> src = gatherBuf.Get<uint16_t>();\n"
    "    LocalTensor<uint16_t> dst = src[256];\n"
    "    LocalTensor<uint32_t> off = gatherBuf.Get<uint32_t>()[256];\n"
    "    for (int32_t k = 0; k < 256; ++k) src.SetValue(k, static_cast<uint16_t>(k));\n"
    "    for (int32_t b = 0; b < 16; ++b) off.SetValue(b, static_cast<uint32_t>((15 - b) * 32));\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    Gatherb(dst, src, off, 2, GatherRepeatParams{1, 8});\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 256; ++k)\n"
    "      if (dst.GetValue(k) != static_cast<uint16_t>((15 - k / 16) * 16 + k % 16)) Trap();\n",
)


def test_gatherb_matches_the_native_engine(engines):
    engines.same(add_with(GATHERB))


# The high-level math's forms without a count (adv_api/math: the whole source tensor): Log10 of
# ten is one, on both engines. A count of type int first: the guest engine's form without one
# took it as its call site's line (and one of int64_t made the call ambiguous).
WHOLE_MATH = add_with_buffer(
    "mathBuf",
    "    pipe.InitBuffer(mathBuf, 512);\n"
    "    LocalTensor<float> ten = mathBuf.Get<float>(64), one = mathBuf.Get<float>()[64];\n"
    "    Duplicate(ten, 10.0f, 64);\n"
    "    Duplicate(one, 5.0f, 64);\n"
    "    PipeBarrier<PIPE_V>();\n"
    "    const int32_t part = 32;\n"
    "    const int64_t all = 64;\n"
    "    Log10(one, ten, part);\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 64; ++k) if (one.GetValue(k) != (k < part ? 1.0f : 5.0f)) Trap();\n"
    "    Log10(one, ten, all);\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 64; ++k) if (one.GetValue(k) != 1.0f) Trap();\n"
    "    Duplicate(one, 5.0f, 64);\n"
    "    PipeBarrier<PIPE_V>();\n"
    "    Log10(one, ten);\n"
    "    PipeBarrier<PIPE_ALL>();\n"
    "    for (int32_t k = 0; k < 64; ++k) if (one.GetValue(k) != 1.0f) Trap();\n",
)


def test_math_without_a_count_matches_the_native_engine(engines):
    engines.same(add_with(WHOLE_MATH))


# API functions by their addresses at the documented signatures, as a function-pointer template
# argument (ops-nn's foreach helpers) and as pointer variables (layer_norm_grad_v3's helpers):
# the count, mask and bit-mask forms, a scalar form and the high-level math; wrong values stop
# the kernel, and the latencies must agree (each call through a pointer charged as a direct one).
# The lengths come from the top-k helpers' constants (asc-devkit's topk_common_utils.h).
BY_ADDRESS = add_edited(
    (
        "constexpr int32_t BUFFER_NUM = 2;\n",
        "constexpr int32_t BUFFER_NUM = 2;\n"
        "template <typename T>\n"
        "using BinaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,"
        " const int32_t&);\n"
        "template <typename T, BinaryOp<T>* op>\n"
        "__aicore__ inline void Apply(const LocalTensor<T>& d, const LocalTensor<T>& a,"
        " const LocalTensor<T>& b) { op(d, a, b, 64); }\n"
        # the top-k helpers' SIXTEEN, and a kernel's own EIGHT in its namespace, which hides ours
        "namespace own {\nconstexpr int32_t EIGHT = 8;\n"
        "constexpr int32_t Lanes() { return EIGHT * EIGHT; }\n}\n",
    ),
    (
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n  }\n",
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
        "    pipe.InitBuffer(fnBuf, 1024);\n"
        "    LocalTensor<float> a = fnBuf.Get<float>(64), b = fnBuf.Get<float>()[64];\n"
        "    LocalTensor<float> c = fnBuf.Get<float>()[128], d = fnBuf.Get<float>()[192];\n"
        "    void (*adds)(const LocalTensor<float>&, const LocalTensor<float>&, const float&,"
        " const int32_t&) = &Adds<float>;\n"
        "    void (*sub)(const LocalTensor<float>&, const LocalTensor<float>&, const LocalTensor<float>&,"
        " uint64_t, const uint8_t, const BinaryRepeatParams&) = Sub;\n"
        "    void (*maxm)(const LocalTensor<float>&, const LocalTensor<float>&, const LocalTensor<float>&,"
        " uint64_t[], const uint8_t, const BinaryRepeatParams&) = Max<float>;\n"
        "    void (*ln)(const LocalTensor<float>&, const LocalTensor<float>&, const int32_t&) = Ln;\n"
        "    void (*sqrt)(const LocalTensor<float>&, const LocalTensor<float>&, uint64_t, const uint8_t,"
        " const UnaryRepeatParams&) = Sqrt<float>;\n"
        "    void (*sin)(const LocalTensor<float>&, const LocalTensor<float>&, const uint32_t) ="
        " Sin<float, false>;\n"
        "    uint64_t bits[2] = {~0ull, 0};\n"
        "    Duplicate(a, 3.0f, static_cast<int32_t>(SIXTEEN * 4));\n"
        "    Duplicate(b, 2.0f, own::Lanes());\n"
        "    PipeBarrier<PIPE_V>();\n"
        "    Apply<float, Mul>(c, a, b);\n"  # 6
        "    PipeBarrier<PIPE_V>();\n"
        "    adds(c, c, 10.0f, 64);\n"  # 16
        "    PipeBarrier<PIPE_V>();\n"
        "    sqrt(c, c, 64, 1, UnaryRepeatParams{});\n"  # 4
        "    PipeBarrier<PIPE_V>();\n"
        "    sub(d, c, b, 64, 1, BinaryRepeatParams{});\n"  # 2
        "    PipeBarrier<PIPE_V>();\n"
        "    maxm(d, d, a, bits, 1, BinaryRepeatParams{});\n"  # 3
        "    PipeBarrier<PIPE_V>();\n"
        "    ln(c, d, 64);\n"
        "    sin(b, a, 64);\n"
        "    PipeBarrier<PIPE_ALL>();\n"
        "    for (int32_t k = 0; k < 64; ++k)\n"
        "      if (d.GetValue(k) != 3.0f || c.GetValue(k) < 1.0986f || c.GetValue(k) > 1.0987f"
        " || b.GetValue(k) < 0.1411f || b.GetValue(k) > 0.1412f) Trap();\n"
        "  }\n",
    ),
    (
        "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n",
        "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n  TBuf<QuePosition::VECCALC> fnBuf;\n",
    ),
)


def test_api_functions_by_their_addresses_match_the_native_engine(engines):
    engines.same(add_with(BY_ADDRESS))


PACKAGES = Path(__file__).parents[1] / "sim" / "packages"


@pytest.mark.parametrize(
    "name",
    [
        "list_scale",  # three list members read through ListTensorDesc, a list output
        "expm1",  # InitSocState, LocalTensors at fixed UB addresses
    ],
)
def test_packages_of_the_closed_gaps_match_the_native_engine(engines, name):
    engines.same(load_package(PACKAGES / name))


@pytest.mark.parametrize(
    "body, why",
    [
        # the block written past the kernel's memory; a Cast reaching past its tensors' buffer
        ("  ascendc_guest::para_block((void*)0xfffffff0u, 1u << 20);\n", "outside"),
        (
            "  Cast(t.ReinterpretCast<half>(), t.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 200000);\n",
            "past",
        ),
        # LocalTensors at fixed addresses past the UB, or not 32 B aligned (the native checks)
        (
            "  LocalTensor<float> u(TPosition::VECCALC, 196608, 8);\n  u.SetValue(0, 1.0f);\n",
            "exceed",
        ),
        ("  LocalTensor<float> u(TPosition::VECCALC, 4, 8);\n  u.SetValue(0, 1.0f);\n", "aligned"),
        # a Gatherb block offset far past the UB
        (
            "  t.ReinterpretCast<uint32_t>().SetValue(0, 0xffffffe0u);\n"
            "  Gatherb(t.ReinterpretCast<uint16_t>()[256], t.ReinterpretCast<uint16_t>(),\n"
            "          t.ReinterpretCast<uint32_t>(), 1, GatherRepeatParams{1, 8});\n",
            "end of the UB",
        ),
    ],
)
def test_forged_parameter_block_int4_and_fixed_address_calls_stop_the_kernel(engines, body, why):
    message = forged(body, engines)
    assert why in message, message


def _pipe_copied(spare_bytes: int) -> str:
    """add with its member TPipe assigned from another that has handed out `spare_bytes` (ops-nn's
    norm-grad kernels copy the entry's pipe into a member and allocate from the member)."""
    init = "    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));\n"
    copy = f"    TPipe given;\n    given.InitBuffer(spare, {spare_bytes});\n    pipe = given;\n"
    return add_with(
        add_edited((init, copy + init), ("  TPipe pipe;\n", "  TPipe pipe;\n  TBuf<> spare;\n"))
    )


def test_a_tpipe_assigned_from_another_holds_its_allocations(engines):
    # Memberwise, as on the device: the queues come after the copied pipe's 1 KiB on both engines...
    engines.same(_pipe_copied(1024))
    # ...and after a pipe that has nearly used up the UB, the queues lie past its end on both.
    native, guest = engines.both(_pipe_copied(190 * 1024))
    assert native.status is guest.status is Status.RUNTIME_ERROR, (native.message, guest.message)
    assert "past the end" in native.message and "past the end" in guest.message, guest.message


def test_the_toolkit_s_api_headers_by_name_compile_on_both_engines(tmp_path):
    # ops-nn's group_norm_grad includes kernel_type.h; convolutions kernel_tpipe.h, the Matmul
    # kernels lib/matrix/matmul/matmul.h: each a part of the API the emulation declares whole.
    names = ["kernel_type.h", "kernel_tpipe.h", "kernel_tensor.h", "lib/matrix/matmul/matmul.h"]
    source = "".join(f'#include "{n}"\n' for n in names)
    compiles_on_both(
        source + "AscendC::LocalTensor<half> t;\nAscendC::TPipe* p = nullptr;\n", tmp_path
    )


def _forwarding_names(root: Path) -> set[str]:
    """The include names under `root` whose header forwards to the emulated API (asc-devkit's names)."""
    return {
        str(h.relative_to(root))
        for h in root.rglob("*.h")
        if "included by this name:" in h.read_text()
    }


def test_every_public_include_name_of_the_toolkit_compiles_on_both_engines(tmp_path):
    # asc-devkit's basic_api and adv_api headers, by every name CANN installs them under (bare and
    # basic_api/, lib/ and adv_api/, the older lib/<api>/ links): one kernel includes them all.
    guest = _forwarding_names(guest_build.GUEST_INCLUDE)
    assert guest == _forwarding_names(build.INCLUDE_DIR)
    assert {"kernel_operator_data_copy_intf.h", "lib/pad/kernel_operator_pad_intf.h"} <= guest
    source = "".join(f'#include "{n}"\n' for n in sorted(guest))
    compiles_on_both(
        source + "AscendC::LocalTensor<half> t;\nAscendC::MatmulConfig c = AscendC::CFG_NORM;\n",
        tmp_path,
    )


def test_the_matmul_configuration_is_named_unqualified_and_set_by_parameter_groups(tmp_path):
    # asc-devkit declares MatmulConfig and its parameter groups at global scope (ops-nn's Matmul
    # kernels write `constexpr MatmulBatchParams p{...}; GetMMConfig<...>(p)` without a namespace).
    source = """#include "lib/matmul_intf.h"
constexpr MatmulBatchParams batch{false, BatchMode::BATCH_LESS_THAN_L1, false, BatchOutMode::MULTI_BATCH};
constexpr MatmulFuncParams func{false, true, false, false, 2, IterateOrder::ORDER_N, ScheduleType::INNER_PRODUCT};
constexpr MatmulShapeParams shape{64, 32, 16, 32, 16, 16};
constexpr MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(shape, batch, func, MatmulBiasParams{false});
static_assert(!cfg.doNorm && cfg.doMultiDataLoad && cfg.singleCoreK == 16 && cfg.basicN == 16);
static_assert(cfg.batchMode == BatchMode::BATCH_LESS_THAN_L1 && !cfg.isBiasBatch && cfg.bmmOutMode == MULTI_BATCH);
static_assert(cfg.enVecND2NZ && cfg.doMTE2Preload == 2 && cfg.iterateOrder == IterateOrder::ORDER_N);
static_assert(!cfg.enableSetBias && CFG_NORM.doNorm && CFG_NORM.batchMode == BatchMode::BATCH_LESS_THAN_L1);
static_assert(GetNormalConfig(false, false, false, BatchMode::NONE, true, IterateOrder::ORDER_M).iterateOrder ==
              IterateOrder::ORDER_M);
using namespace AscendC;
constexpr MatmulConfig both = CFG_MDL;  // the same entity through AscendC and the global scope
"""
    compiles_on_both(source, tmp_path)


def test_a_host_header_s_json_library_compiles_for_the_guest(tmp_path):
    # ops-nn's RNN tiling headers include nlohmann/json, which includes <filesystem> where the
    # standard library has it: wasm32 libc++'s stops the compile (built without it). The guest
    # build turns json's filesystem support off by its own switches; nothing reaches a file.
    compiles_on_both('#include <nlohmann/json.hpp>\n#include "kernel_operator.h"\n', tmp_path)


def test_the_library_s_buffer_sizes_are_named_as_on_the_a2(tmp_path):
    # ops-nn's Matmul kernels size their UB tiles by TOTAL_UB_SIZE (mat_mul_v3_common.h), unqualified
    # after `using namespace AscendC`: asc-devkit's kernel_utils_constants.h for __NPU_ARCH__ 2201.
    source = """#include "kernel_operator.h"
using namespace AscendC;
static_assert(TOTAL_UB_SIZE == 192 * 1024 && TOTAL_VEC_LOCAL_SIZE == 184 * 1024 && TMP_UB_SIZE == 8 * 1024);
static_assert(TOTAL_L1_SIZE == 512 * 1024 - 128 && TOTAL_L0A_SIZE == 64 * 1024 && TOTAL_L0B_SIZE == 64 * 1024);
static_assert(AscendC::TOTAL_L0C_SIZE == 128 * 1024);
"""
    compiles_on_both(source, tmp_path)


# A scalar of the device compiler's fp16 builtin type, `__fp16`, of which half is the typedef on the
# device, passed where Muls takes its tensors' half (the signature asc-devkit declares: a scalar of
# the tensors' type): the fp16 cases scale z by 2 and by 0.5, so z = x + y still.
FP16_SCALAR = add_edited(
    (
        "constexpr int32_t BUFFER_NUM = 2;\n",
        'constexpr int32_t BUFFER_NUM = 2;\nstatic_assert(std::is_same_v<half, __fp16>, "__fp16 is half");\n',
    ),
    (
        "    Add(zLocal, xLocal, yLocal, (len + alignElems - 1) / alignElems * alignElems);\n",
        "    const uint32_t n = (len + alignElems - 1) / alignElems * alignElems;\n"
        "    Add(zLocal, xLocal, yLocal, n);\n"
        "    if constexpr (std::is_same_v<DTYPE_Z, __fp16>) {\n"
        "      __fp16 twice = 2.0, halve = 0.5f;\n"
        "      Muls(zLocal, zLocal, twice, n);\n"
        "      Muls(zLocal, zLocal, halve, n);\n"
        "    }\n",
    ),
)


def test_an_fp16_builtin_scalar_is_the_half_of_the_api_on_both_engines(engines):
    engines.same(add_with(FP16_SCALAR))


# The sub-block intrinsics by their CCE names (sgl-kernel-npu's hand-written mixed attention
# kernels call get_subblockid): each agrees with its API name, or the kernel stops.
SUB_BLOCK = add_edited(
    (
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n  }\n",
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
        "    if (get_subblockid() != GetSubBlockIdx() || get_subblockdim() != GetSubBlockNum()) Trap();\n"
        "  }\n",
    ),
)


def test_the_sub_block_intrinsics_match_the_native_engine(engines):
    engines.same(add_with(SUB_BLOCK))
