"""Kernels the guest engine stopped or answered wrongly where the native engine ran them (issue 50,
the development corpus's RUNTIME_ERROR gaps), each as a small kernel of our own: a copy into a cube
buffer placed past the UB (the bias table), a list parameter's descriptor whose member addresses
the kernel casts to __gm__ pointers, fp16 / bf16 elements read through a __gm__ pointer, and a
tensor past the UB that TPipe handed out (as the device, TPipe hands out addresses past the UB and
only an access there is an error). Each gets the native engine's verdict and simulated latency; a
copy past the bias table still stops the kernel."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve

from .test_real_gaps import add_edited

REGIST = "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);\n"


def matmul_with(body: str):
    """level1/matmul (a cube kernel) with `body` run before its Matmul is registered."""
    pkg = resolve("level1/matmul")
    kernel = pkg.files[pkg.kernel_path]
    assert REGIST in kernel
    return pkg.with_sources(kernel=kernel.replace(REGIST, body + REGIST, 1))


# L1 to the bias table (C1 to C2), the count form: the bias table's addresses start past the UB's
# and L1's, so its reach is held to [its base, base + 1 KiB).
BIAS_COPY = (
    "  TBuf<TPosition::C1> l1;\n  TBuf<TPosition::C2> bt;\n"
    "  pipe.InitBuffer(l1, 4096);\n  pipe.InitBuffer(bt, 1024);\n"
    "  DataCopy(bt.Get<float>(), l1.Get<float>(), {COUNT});\n"
    "  PipeBarrier<PIPE_ALL>();\n"  # the Matmul's own L1 buffers start where l1 does
)


def test_a_copy_into_the_bias_table_matches_the_native_engine(engines):
    engines.same(matmul_with(BIAS_COPY.replace("{COUNT}", "256")))


def assert_guest_stops_past(engines, body: str, run_id: str) -> None:
    """level1/matmul with `body` stops on the guest engine with a RUNTIME_ERROR naming a reach past."""
    result = engines.guest.evaluate(
        EvalRequest(
            run_id=run_id,
            package=matmul_with(body),
            stages=[Stage.COMPILE, Stage.CHECK],
            timeouts=Timeouts(build_s=300, run_s=120),
        )
    )
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "past" in result.message, result.message


def test_a_copy_past_the_bias_table_stops_the_kernel(engines):
    # 2 KiB into the bias table's 1 KiB: the count form's reach, past the destination tensor.
    assert_guest_stops_past(engines, BIAS_COPY.replace("{COUNT}", "512"), "bias-past")


LIST_SCALE = Path(__file__).parents[1] / "sim" / "packages" / "list_scale"

# list_scale's kernel decoding its descriptors by hand, as real kernels do (word 0: the byte offset
# of the members' GM addresses, one 64-bit word each), the addresses cast to __gm__ pointers.
RAW_LIST_EDITS = {
    '#include "kernel_operator_list_tensor_intf.h"\n': (
        "__aicore__ inline __gm__ float* Member(GM_ADDR list, uint32_t i) {\n"
        "  __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(list);\n"
        "  return reinterpret_cast<__gm__ float*>(*(words + (*words >> 3) + i));\n"
        "}\n"
    ),
    "  ListTensorDesc inputs((__gm__ void*)xs);\n  ListTensorDesc outputs;\n"
    "  outputs.Init((__gm__ void*)ys);\n"
    "  if (inputs.GetSize() != t.count || outputs.GetSize() != t.count) return;\n": "",
    # the input's dims from its descriptor: the tiling's lengths instead
    "    uint64_t dims[8] = {};\n    TensorDesc<float> desc;\n    desc.SetShapeAddr(dims);\n"
    "    inputs.GetDesc(desc, i);\n    uint64_t n = 1;\n"
    "    for (uint64_t d = 0; d < desc.GetDim(); ++d) n *= desc.GetShape(d);\n"
    "    if (n != t.lengths[i] || desc.GetIndex() != i) continue;\n"
    "    GlobalTensor<float> x = desc.GetDataObj();\n": (
        "    const uint64_t n = t.lengths[i];\n"
        "    GlobalTensor<float> x;\n    x.SetGlobalBuffer(Member(xs, i), n);\n"
    ),
    "outputs.GetDataPtr<float>(i)": "Member(ys, i)",
}


def test_list_descriptors_name_their_members_in_the_guests_gm(engines):
    pkg = load_package(LIST_SCALE)
    kernel = pkg.files[pkg.kernel_path]
    for old, new in RAW_LIST_EDITS.items():
        assert old in kernel, old
        kernel = kernel.replace(old, new, 1)
    engines.same(pkg.with_sources(kernel=kernel))


# level1/add scaling its sum by a factor made from x's first element of the block, read through a
# __gm__ pointer (fp16 elements are of class type on the guest: a converting load), 1 for any
# finite x: both forms, an initialisation and an assignment.
HEAD_READ = add_edited(
    (
        "    this->tileLength = tileLength;\n",
        "    this->tileLength = tileLength;\n"
        "    const DTYPE_X first = *((__gm__ DTYPE_X*)x + offset);\n"
        "    head = *((__gm__ DTYPE_X*)x + offset + 1);\n"
        "    scale = static_cast<float>(first) * 0.0f + static_cast<float>(head) * 0.0f + 1.0f;\n",
    ),
    (
        "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
        "    Muls(zLocal, zLocal, static_cast<DTYPE_Z>(scale), (len + alignElems - 1) / alignElems * alignElems);\n"
        "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
    ),
    ("  uint32_t blockLength;\n", "  uint32_t blockLength;\n  DTYPE_X head;\n  float scale;\n"),
)


def test_fp16_elements_read_through_a_gm_pointer_match_the_native_engine(engines):
    engines.same(resolve("level1/add").with_sources(kernel=HEAD_READ))


# level1/add with a scratch buffer of 256 KiB after its queues: TPipe hands out addresses past the
# UB as the device does (a warning), and the tensor TBuf::Get makes there reaches past the UB; the
# kernel touches only its head, inside the UB. The sum goes through it and back.
PAST_THE_UB = add_edited(
    (
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n",
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
        "    pipe.InitBuffer(spill, 256 * 1024);\n",
    ),
    (
        "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
        "    const uint32_t n = (len + alignElems - 1) / alignElems * alignElems;\n"
        "    LocalTensor<DTYPE_Z> s = spill.Get<DTYPE_Z>();\n"
        "    PipeBarrier<PIPE_V>();\n    Muls(s, zLocal, static_cast<DTYPE_Z>(1), n);\n"
        "    PipeBarrier<PIPE_V>();\n    Muls(zLocal, s, static_cast<DTYPE_Z>(1), n);\n"
        "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
    ),
    (
        "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n",
        "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n  TBuf<QuePosition::VECCALC> spill;\n",
    ),
)


def test_a_tensor_past_the_ub_that_tpipe_handed_out_matches_the_native_engine(engines):
    engines.same(resolve("level1/add").with_sources(kernel=PAST_THE_UB))


# level1/add scaling its sum by a factor staged through a double tensor (element writes, a UB to UB
# copy of four doubles, element reads): 1.
DOUBLES = add_edited(
    (
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n",
        "    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));\n"
        "    pipe.InitBuffer(wide, 64);\n"
        "    LocalTensor<double> d = wide.Get<double>();\n"
        "    for (int i = 0; i < 4; ++i) d.SetValue(i, 0.25 * (i + 1));\n"
        "    PipeBarrier<PIPE_ALL>();\n    DataCopy(d[4], d, 4);\n    PipeBarrier<PIPE_ALL>();\n"
        "    scale = static_cast<float>(d.GetValue(7) - d.GetValue(6) + d.GetValue(5) + d.GetValue(4));\n",
    ),
    (
        "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
        "    Muls(zLocal, zLocal, static_cast<DTYPE_Z>(scale), (len + alignElems - 1) / alignElems * alignElems);\n"
        "    outQueueZ.EnQue<DTYPE_Z>(zLocal);\n",
    ),
    (
        "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n",
        "  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;\n  TBuf<QuePosition::VECCALC> wide;\n"
        "  float scale;\n",
    ),
)


def test_double_elements_copied_and_read_match_the_native_engine(engines):
    engines.same(resolve("level1/add").with_sources(kernel=DOUBLES))
