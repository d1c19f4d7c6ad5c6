"""The rewrite catalogue: each rewrite's edit on real and synthetic kernels, and that applied
rewrites of the add operator still compile and pass on the simulator."""

from __future__ import annotations

import pickle
import re

import pytest

from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC, EvalRequest, Stage, Status
from ascend_core.soc import aic_cores, aiv_cores
from ascend_gym import rewrites


@pytest.fixture(scope="module")
def add():
    return suite.resolve("level1/add")


def _aligned(pkg):
    """The add operator with every case a whole number of 32-byte blocks."""
    spec = pkg.spec.model_copy(
        update={
            "cases": [
                c.model_copy(update={"shapes": {"x": [64, 64], "y": [64, 64]}})
                for c in pkg.spec.cases
            ]
        }
    )
    return pkg.model_copy(update={"spec": spec})


def test_catalogue_shape_is_stable():
    names = [r.name for r in rewrites.CATALOGUE]
    assert len(names) == len(set(names)) == 45
    assert names[:4] == ["tune[0]:x2", "tune[0]:/2", "tune[0]:+step", "tune[0]:-step"]
    assert rewrites.index("hoist_mask") == 24  # the cube entries come after, ids unchanged
    assert names[25] == "cube_base_m:x2" and names[37] == "mix_ratio:1_1"
    assert names[38:] == [
        "pipe_all_to_precise",
        "double_buffer:literal",
        "scalar_gm_reads_to_ub",
        "row_copies_to_burst",
        "scalar_loops_to_vector",
        "split_tile_loops",
        "matmul_multi_core",
    ]
    assert all(r.part in ("tiling", "kernel") and r.description for r in rewrites.CATALOGUE)
    assert pickle.loads(pickle.dumps(rewrites.CATALOGUE)) == rewrites.CATALOGUE  # Ray ships them


def test_the_mask_is_kept_per_candidate_and_is_the_callers_own(add):
    """The mask is cached by content hash: a revisited candidate gets the mask a fresh scan gives,
    a caller's edit of it reaches nobody else, and a changed candidate gets a mask of its own."""
    first = rewrites.applicable_mask(add)
    fresh = [r.apply(add, DEFAULT_SOC) is not None for r in rewrites.CATALOGUE]
    first[:] = ~first
    assert list(rewrites.applicable_mask(add)) == fresh
    doubled = rewrites.by_name("double_buffer:off").apply(add, DEFAULT_SOC)
    assert list(rewrites.applicable_mask(doubled)) == [
        r.apply(doubled, DEFAULT_SOC) is not None for r in rewrites.CATALOGUE
    ]
    assert list(rewrites.applicable_mask(doubled)) != fresh


def test_mask_on_add(add):
    mask = rewrites.applicable_mask(add)
    on = {r.name for r, ok in zip(rewrites.CATALOGUE, mask) if ok}
    assert {
        "tune[0]:x2",
        "tune[1]:/2",
        "tile:larger",
        "double_buffer:off",
        "l2_bypass:inputs",
    } <= on
    # block dim is already 40, tile_length 4096 + 1 is not a power of two, depth is already 2,
    # add has no barrier, its tail cases are unaligned, and it sets no mask.
    assert not on & {
        "block_dim:cores",
        "tune[1]:+step",
        "tune[2]:x2",
        "double_buffer:on",
        "remove_pipe_all_barrier",
        "datacopypad_to_datacopy",
        "hoist_mask",
    }
    for r, ok in zip(rewrites.CATALOGUE, mask):
        assert (r.apply(add) is not None) == ok


def test_double_buffer_round_trip(add):
    off = rewrites.by_name("double_buffer:off").apply(add)
    assert "BUFFER_NUM = 1;" in off.kernel_source and "BUFFER_NUM = 1;" in off.tiling_source
    assert rewrites.by_name("double_buffer:off").apply(off) is None
    assert rewrites.by_name("double_buffer:on").apply(off).files == add.files


def test_barrier_removal_skips_comments(add):
    kernel = add.kernel_source.replace(
        "    Compute(len);\n",
        "    // PipeBarrier<PIPE_ALL>();  kept: a comment\n    Compute(len);\n    PipeBarrier<PIPE_ALL>();\n"
        "    if (len > 0) AscendC::PipeBarrier<PIPE_ALL>();\n",
    )
    pkg = add.with_sources(kernel=kernel)
    once = rewrites.by_name("remove_pipe_all_barrier").apply(pkg)
    assert once.kernel_source.count("PipeBarrier<PIPE_ALL>") == 2
    assert "    Compute(len);\n    if (len > 0)" in once.kernel_source
    twice = rewrites.by_name("remove_pipe_all_barrier").apply(once)
    assert (
        "if (len > 0) ;" in twice.kernel_source
        and "// PipeBarrier<PIPE_ALL>();  kept" in twice.kernel_source
    )
    assert rewrites.by_name("remove_pipe_all_barrier").apply(twice) is None


def test_pad_to_copy_needs_aligned_cases(add):
    rewrite = rewrites.by_name("datacopypad_to_datacopy")
    assert rewrite.apply(add) is None
    copied = rewrite.apply(_aligned(add))
    assert "DataCopyPad" not in copied.kernel_source
    assert "DataCopy(xLocal, xGm[offset], len);" in copied.kernel_source
    assert "DataCopy(zGm[offset], zLocal, len);" in copied.kernel_source


def test_every_dtype_has_a_size_for_the_rules():
    """The alignment rule sizes elements of every dtype a spec may name (complex64 and float64
    operators of ascend-real-v1 crashed the action mask, and with it the env's reset)."""
    add = suite.resolve("level1/add")
    for dtype in ("complex64", "float64", "uint32"):
        cases = [c.model_copy(update={"dtype": dtype}) for c in add.spec.cases]
        typed = add.model_copy(update={"spec": add.spec.model_copy(update={"cases": cases})})
        assert rewrites.applicable_mask(typed).dtype == bool


def test_l2_hint_only_on_unwritten_inputs(add):
    hinted = rewrites.by_name("l2_bypass:inputs").apply(add).kernel_source
    assert (
        "xGm.SetL2CacheHint" in hinted
        and "yGm.SetL2CacheHint" in hinted
        and "zGm.SetL2CacheHint" not in hinted
    )
    assert rewrites.by_name("l2_bypass:inputs").apply(add.with_sources(kernel=hinted)) is None


def test_hoist_mask_moves_only_invariant_groups(add):
    invariant = add.kernel_source.replace(
        "      CopyIn(done, len);\n",
        "      SetMaskCount();\n      SetVectorMask<DTYPE_X>(0, tileLength);\n      CopyIn(done, len);\n",
    )
    hoisted = rewrites.by_name("hoist_mask").apply(add.with_sources(kernel=invariant)).kernel_source
    assert (
        "    SetMaskCount();\n      SetVectorMask<DTYPE_X>(0, tileLength);\n    for (uint32_t done"
        in hoisted
    )
    assert "SetMaskCount" not in hoisted.split("for (uint32_t done")[1]
    variant = add.kernel_source.replace(
        "      CopyIn(done, len);\n",
        "      SetVectorMask<DTYPE_X>(0, len);\n      CopyIn(done, len);\n",
    )
    assert rewrites.by_name("hoist_mask").apply(add.with_sources(kernel=variant)) is None


def test_applied_rewrites_still_pass(add, client, tmp_path):
    for name in ("double_buffer:off", "l2_bypass:inputs"):
        result = client.evaluate(
            EvalRequest(run_id="t-rewrites", package=rewrites.by_name(name).apply(add))
        )
        assert result.status is Status.OK, (name, result.message)
    # The aligned variant changes a suite operator's spec, which the daemon replaces with its own
    # (npu_daemon/references.py): it is evaluated on the backend itself.
    from npu_daemon.backends.sim import SimBackend

    backend = SimBackend()
    backend.prepare()
    rewritten = rewrites.by_name("datacopypad_to_datacopy").apply(_aligned(add))
    result = backend.evaluate(EvalRequest(package=rewritten), tmp_path)
    assert result.status is Status.OK, result.message


def test_cube_rewrites_apply_to_the_cube_operators():
    applies = {
        name: {r.name for r in rewrites.applicable(suite.resolve(name))}
        for name in ("level1/matmul", "level2/matmul_bias_relu", "level3/attention")
    }
    cube = {"cube_base_m:x2", "cube_base_m:/2", "cube_base_n:/2", "cube_base_k:x2"}
    assert cube | {"matmul_template:mdl"} <= applies["level1/matmul"]
    assert "cube_cores:all" not in applies["level1/matmul"]  # already the part's 20
    assert "matmul_template:norm" not in applies["level1/matmul"]  # already Norm: no change
    assert {"mix_ratio:1_1", "matmul_template:mdl"} <= applies["level2/matmul_bias_relu"]
    assert "mix_ratio:1_2" not in applies["level2/matmul_bias_relu"]
    assert not cube & applies["level3/attention"]  # no base-block markers there
    expert = suite.load_expert("level1/matmul")
    cores = rewrites.by_name("cube_cores:all").apply(expert)
    assert f"CUBE_CORES = {aic_cores(DEFAULT_SOC)};" in cores.tiling_source
    step = rewrites.by_name("cube_step_k:/2").apply(expert)
    assert "STEP_K = 2;" in step.tiling_source
    norm = rewrites.by_name("matmul_template:norm").apply(expert)
    assert "CFG_NORM> mm;" in norm.kernel_source and "CFG_MDL" not in norm.kernel_source
    # Text outside code is left alone.
    assert "MDL template" in norm.kernel_source


def test_applied_cube_rewrites_still_pass(tmp_path):
    from npu_daemon.backends.sim import SimBackend

    backend = SimBackend()
    backend.prepare()
    for op, name in (
        ("level1/linear", "cube_base_n:/2"),
        ("level1/matmul_trans_a", "matmul_template:mdl"),
        ("level1/matmul_trans_a", "cube_base_k:x2"),
        ("level2/matmul_bias_relu", "mix_ratio:1_1"),
    ):
        pkg = rewrites.by_name(name).apply(suite.resolve(op))
        small = [c.name for c in pkg.spec.cases if not c.bench]
        request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.CHECK], cases=small)
        result = backend.evaluate(request, tmp_path / name.replace(":", "_"))
        if name == "mix_ratio:1_1":
            # One AIV per AIC: the baseline's vector blocks assume two, so half of y is never
            # written. The rewrite compiles and runs; the check catches the wrong answer.
            assert result.status is Status.WRONG_ANSWER, (op, name, result.message)
        else:
            assert result.status is Status.OK, (op, name, result.message)


def test_all_cores_is_the_soc_s_core_count():
    """block_dim:cores takes the vector core count of the SoC the candidate runs on, not the
    default SoC's (a 48-core Ascend910B1 gets 48, not the 910B4's 40); cube_cores:all likewise."""
    add = suite.resolve("level1/add")
    halved = rewrites.by_name("tune[0]:/2").apply(add)  # BLOCK_DIM 40 -> 20
    for soc in ("Ascend910B4", "Ascend910B1"):
        cores = rewrites.by_name("block_dim:cores").apply(halved, soc)
        assert f"BLOCK_DIM = {aiv_cores(soc)};" in cores.tiling_source
    assert aiv_cores("Ascend910B1") == 48
    assert rewrites.applicable_mask(add, "Ascend910B1")[rewrites.index("block_dim:cores")]
    assert not rewrites.applicable_mask(add)[rewrites.index("block_dim:cores")]


# ---- rewrites of real kernels' idioms, on operators of our own in the real layouts --------------


def _real(op: str):
    from pathlib import Path

    from ascend_gym.corpus import build_package, find_ops, spec_for

    layouts = Path(__file__).parents[1] / "agents" / "real_layouts"
    return next(build_package(s, spec_for(s)) for s in find_ops(layouts) if s.op == op)


def _check(package, tmp_path):
    from npu_daemon.backends.sim import SimBackend

    request = EvalRequest(package=package, stages=[Stage.COMPILE, Stage.CHECK])
    result = SimBackend().evaluate(request, tmp_path)
    assert result.status is Status.OK, result.message


def test_pipe_all_barriers_become_the_waits_their_pipes_need(tmp_path):
    relu = _real("relu")  # its class lives in op_kernel/relu_impl.h, as ops-nn keeps them
    new = rewrites.by_name("pipe_all_to_precise").apply(relu)
    header = new.files["op_kernel/relu_impl.h"]
    assert new.kernel_source == relu.kernel_source
    # copy-in -> Duplicate, Duplicate -> Max, Max -> copy-out; the loop's last barrier (before
    # the next iteration's copy-in) has no next statement in its block and stays.
    assert header.count("SetFlag<AscendC::HardEvent::MTE2_V>") == 1
    assert header.count("AscendC::PipeBarrier<PIPE_V>();") == 1
    assert header.count("SetFlag<AscendC::HardEvent::V_MTE3>") == 1
    assert header.count("PipeBarrier<PIPE_ALL>") == 1
    assert rewrites.by_name("pipe_all_to_precise").apply(new) is None
    _check(new, tmp_path)


def test_precise_barriers_leave_what_they_cannot_read():
    relu = _real("relu")
    # A call of the kernel's own, whose pipes are unknown: the barriers before and after it stay.
    source = relu.files["op_kernel/relu_impl.h"].replace("Duplicate(zeros,", "FillZeros(zeros,")
    edited = rewrites.by_name("pipe_all_to_precise").apply(
        relu.model_copy(update={"files": {**relu.files, "op_kernel/relu_impl.h": source}})
    )
    header = edited.files["op_kernel/relu_impl.h"]
    assert header.count("PipeBarrier<PIPE_ALL>") == 3
    assert "V_MTE3" in header and "MTE2_V" not in header


def test_literal_queue_depths_double(tmp_path):
    neg = _real("neg")
    new = rewrites.by_name("double_buffer:literal").apply(neg)
    assert new.kernel_source.count("TQue<QuePosition::VEC") == 2
    assert "TQue<QuePosition::VECIN, 2> inQueue;" in new.kernel_source
    assert "InitBuffer(inQueue, 2," in new.kernel_source
    assert "InitBuffer(outQueue, 2," in new.kernel_source
    assert rewrites.by_name("double_buffer:literal").apply(new) is None
    assert rewrites.by_name("double_buffer:on").apply(neg) is None  # no BUFFER_NUM constant
    _check(new, tmp_path)


def _edited(package, path: str, old: str, new: str):
    """`package` with `old` replaced by `new` in the file at `path` (which must hold it)."""
    assert old in package.files[path], old
    return package.model_copy(
        update={"files": {**package.files, path: package.files[path].replace(old, new)}}
    )


def test_scalar_gm_reads_are_staged_in_ub(tmp_path):
    prelu = _real("prelu")  # reads each plane's weight with weightGm.GetValue in its plane loop
    new = rewrites.by_name("scalar_gm_reads_to_ub").apply(prelu)
    header = new.files["op_kernel/prelu_impl.h"]
    assert new.kernel_source == prelu.kernel_source
    assert "weightGm.GetValue" not in header
    assert "weightGmUb.GetValue(channels == 1 ? 0 : p % channels)" in header
    # One 32 B-aligned copy into a buffer of the kernel's own pipe, after its other buffers, and
    # the scalar unit waits for MTE2 before reading it.
    assert header.index("pipe.InitBuffer(negBuf") < header.index("pipe.InitBuffer(weightGmUbBuf")
    assert "(weightGm.GetSize() * sizeof(float) + 31) / 32 * 32" in header
    assert header.count("AscendC::DataCopy(weightGmUb, weightGm,") == 1
    copy = header.index("AscendC::DataCopy(weightGmUb, weightGm,")
    assert header.index("AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(staged);") > copy
    assert "AscendC::TBuf<AscendC::TPosition::VECCALC> weightGmUbBuf;" in header
    assert rewrites.by_name("scalar_gm_reads_to_ub").apply(new) is None
    _check(new, tmp_path)


def test_scalar_gm_reads_stay_where_staging_is_invalid():
    prelu = _real("prelu")
    rule = rewrites.by_name("scalar_gm_reads_to_ub")
    impl = "op_kernel/prelu_impl.h"
    set_weight = "weightGm.SetGlobalBuffer((__gm__ float*)weight, channels);"
    invalid = {
        "no size": _edited(
            prelu, impl, set_weight, "weightGm.SetGlobalBuffer((__gm__ float*)weight);"
        ),
        "set in a branch": _edited(prelu, impl, set_weight, f"if (channels > 0) {set_weight}"),
        "written": _edited(
            prelu, impl, "Compute(w, n);", "Compute(w, n);\n        weightGm.SetValue(0, w);"
        ),
        # As some real kernels do: the size is computed after the SetGlobalBuffer that uses it.
        "size known later": _edited(
            _edited(prelu, impl, set_weight, set_weight.replace("channels)", "weightCount)")),
            impl,
            "pipe.InitBuffer(negBuf, tile * sizeof(float));",
            "pipe.InitBuffer(negBuf, tile * sizeof(float));\n    weightCount = channels;",
        ),
        "early return": _edited(
            prelu,
            impl,
            "    this->inner = inner;",
            "    if (planeCount == 0) return;\n    this->inner = inner;",
        ),
        "read once, not in a loop": _edited(
            prelu,
            impl,
            "    for (uint32_t p = firstPlane; p < firstPlane + planeCount; ++p) {\n"
            "      const float w = weightGm.GetValue(channels == 1 ? 0 : p % channels);",
            "    const float w = weightGm.GetValue(0);\n"
            "    for (uint32_t p = firstPlane; p < firstPlane + planeCount; ++p) {",
        ),
    }
    for why, package in invalid.items():
        assert rule.apply(package) is None, why
    # A weight too large for the UB the rule may take (16 KiB of fp32 in one case).
    case = prelu.spec.cases[0].model_copy(update={"shapes": {"x": [1, 4096, 2], "weight": [4096]}})
    big = prelu.spec.model_copy(update={"cases": [case, *prelu.spec.cases[1:]]})
    assert rule.apply(prelu.model_copy(update={"spec": big})) is None


def _bench_latency(package, tmp_path) -> float:
    from npu_daemon.backends.sim import SimBackend

    result = SimBackend().evaluate(EvalRequest(package=package), tmp_path)
    assert result.status is Status.OK, result.message
    return result.latency_us


def test_row_copies_become_one_burst(tmp_path):
    relu6 = _real("relu6")  # one DataCopyPad per row in, one per row out, UB rows padded to 32 B
    new = rewrites.by_name("row_copies_to_burst").apply(relu6)
    kernel = new.kernel_source
    # Each loop becomes one copy of n bursts with the gaps between rows (GM in bytes, UB in 32 B
    # blocks), taken when those fit; the loop stays for the rest and is not rewritten again.
    assert "DataCopyPad(xLocal, xGm[offset], AscendC::DataCopyExtParams(n, " in kernel
    assert "DataCopyPad(yGm[offset], yLocal, AscendC::DataCopyExtParams(n, " in kernel
    assert kernel.count("for (uint32_t r = 0; r < n; ++r)") == 2
    assert kernel.count("} else {  // the rows one by one") == 2
    assert rewrites.by_name("row_copies_to_burst").apply(new) is None
    _check(new, tmp_path / "check")
    # Fewer DMA starts: the bench case (64 x 2048 fp32, 4 rows per tile) runs faster.
    assert _bench_latency(new, tmp_path / "new") < _bench_latency(relu6, tmp_path / "base")


def test_contiguous_row_copies_become_one_datacopy():
    relu6 = _real("relu6")
    copy_in = (
        "DataCopyPad(xLocal[r * colsAligned], xGm[offset + r * cols],\n"
        "                    {1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});"
    )
    dense = _edited(
        relu6,
        relu6.kernel_path,
        copy_in,
        "DataCopy(xLocal[r * colsAligned], xGm[offset + r * colsAligned], colsAligned);",
    )
    kernel = rewrites.by_name("row_copies_to_burst").apply(dense).kernel_source
    # Rows as long as their pitch on both sides: one count-form copy, nothing to guard.
    assert "DataCopy(xLocal, xGm[offset], n * colsAligned);" in kernel
    assert "xGm[offset + r * colsAligned]" not in kernel


def test_row_copies_stay_where_one_burst_does_not_move_them():
    relu6 = _real("relu6")
    rule = rewrites.by_name("row_copies_to_burst")
    path = relu6.kernel_path
    copy_out = "DataCopyPad(yGm[offset + r * cols], yLocal[r * colsAligned],"
    for why, old, new in (
        ("padded rows", "{false, 0, 0, 0});", "{true, 0, 1, 0});"),
        (
            "more than the copy in the body",
            copy_out,
            f"Maxs(yLocal, yLocal, 0.0f, 8);\n        {copy_out}",
        ),
        (
            "rows not from 0",
            "for (uint32_t r = 0; r < n; ++r) {\n        DataCopyPad(yGm",
            "for (uint32_t r = 1; r < n; ++r) {\n        DataCopyPad(yGm",
        ),
        ("not a row walk", "yGm[offset + r * cols]", "yGm[offset + r * r]"),
    ):
        kernel = rule.apply(_edited(relu6, path, old, new)).kernel_source
        assert kernel.count("AscendC::DataCopyExtParams(n, ") == 1, why  # the other loop only
    assert rule.apply(_real("neg")) is None  # one copy per tile, no row loop


def test_scalar_loops_become_vector_instructions(tmp_path):
    add = _real("add_v2")  # converts, adds and converts back element by element, for four dtypes
    rule = rewrites.by_name("scalar_loops_to_vector")
    new = rule.apply(add)
    kernel = new.kernel_source
    assert "if (!AscendGymVectorCopy(a, x1Local, static_cast<int32_t>(n))) {" in kernel
    assert "if (!AscendGymVectorBinary<'+'>(sum, a, b, static_cast<int32_t>(n))) {" in kernel
    assert "if (!AscendGymVectorCopy(yLocal, sum, static_cast<int32_t>(n))) {" in kernel
    # Through a float local, x2's conversion is not a copy the rule can prove: it stays.
    assert (
        "    for (uint32_t i = 0; i < n; ++i) {\n      float value = x2Local.GetValue(i);" in kernel
    )
    # The helpers once, after the includes; the guarded loops are not rewritten again.
    assert kernel.count("#define ASCEND_GYM_VECTOR_LOOPS") == 1
    assert kernel.index('#include "kernel_operator.h"') < kernel.index("ASCEND_GYM_VECTOR_LOOPS")
    assert rule.apply(new) is None
    # Every case of every dtype passes: float and half take the vector forms, int32 converts in
    # by Cast and out by its loop, int16 keeps every loop.
    _check(new, tmp_path / "check")
    assert _bench_latency(new, tmp_path / "new") < _bench_latency(add, tmp_path / "base") / 2


def test_scalar_loops_stay_where_they_are_not_element_wise_over_ub():
    add = _real("add_v2")
    rule = rewrites.by_name("scalar_loops_to_vector")
    path = add.kernel_path
    store = "sum.SetValue(i, a.GetValue(i) + b.GetValue(i));"
    for why, old, new in (
        ("another index", store, "sum.SetValue(i, a.GetValue(i) + b.GetValue(i + 1));"),
        ("a GM read", store, "sum.SetValue(i, a.GetValue(i) + x1Gm.GetValue(i));"),
        ("more than one store", store, f"{store}\n        a.SetValue(i, 0.0f);"),
        ("an operator without a vector form", store, store.replace(" + ", " / ")),
        ("a conversion on the way", store, "sum.SetValue(i, static_cast<half>(a.GetValue(i)));"),
        (
            "not from 0",
            "for (uint32_t i = 0; i < n; i++) {",
            "for (uint32_t i = 1; i < n; i++) {",
        ),
    ):
        kernel = rule.apply(_edited(add, path, old, new)).kernel_source
        assert "AscendGymVectorBinary<'+'>(sum" not in kernel, why
        assert kernel.count("if (!AscendGymVector") == 2, why  # the two copies only
    assert rule.apply(_real("neg")) is None  # vector calls already


def test_scalar_gm_reads_of_the_suite_s_group_norm(tmp_path):
    """ascend-ops-v1's group_norm reads gamma and beta per channel from GM: both are staged, with
    one wait for the two copies, and every case still passes."""
    group_norm = suite.resolve("level3/group_norm")
    new = rewrites.by_name("scalar_gm_reads_to_ub").apply(group_norm)
    kernel = new.kernel_source
    assert "gammaGmUb.GetValue(firstChannel + c)" in kernel
    assert "betaGmUb.GetValue(firstChannel + c)" in kernel
    assert kernel.count("AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>") == 1
    _check(new, tmp_path)


def test_row_copies_indexed_by_a_cast_sum(tmp_path):
    """`xGm[static_cast<uint64_t>(row + r) * cols]`, as ops-nn writes row offsets: row 0 is
    `row`'s, the cast kept."""
    relu6 = _real("relu6")
    walked = _edited(
        relu6,
        relu6.kernel_path,
        "xGm[offset + r * cols]",
        "xGm[static_cast<uint64_t>(row + r) * cols]",
    )
    new = rewrites.by_name("row_copies_to_burst").apply(walked)
    assert "DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * cols], " in new.kernel_source
    _check(new, tmp_path)


def test_tile_loops_of_a_one_core_kernel_are_split_between_the_blocks(tmp_path):
    reciprocal = _real("reciprocal")  # SetBlockDim(1); Process walks all 64 tiles of the bench
    rule = rewrites.by_name("split_tile_loops")
    new = rule.apply(reciprocal)
    kernel = new.kernel_source
    assert (
        "for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < tileNum; "
        "i += static_cast<uint32_t>(AscendC::GetBlockNum())) {"
    ) in kernel
    # The one loop of Process: the helpers it calls are not methods the entry calls.
    assert kernel.count("GetBlockIdx") == 1
    assert "context->SetBlockDim(40);" in new.tiling_source  # every vector core of the 910B4
    assert rule.apply(new) is None  # the kernel reads its block index now
    _check(new, tmp_path / "check")
    assert (
        _bench_latency(new, tmp_path / "new") < _bench_latency(reciprocal, tmp_path / "base") / 1.3
    )


def test_tile_loops_stay_where_the_split_is_not_provable():
    reciprocal = _real("reciprocal")
    rule = rewrites.by_name("split_tile_loops")
    path = reciprocal.kernel_path
    loop = "for (uint32_t i = 0; i < tileNum; i++) {"
    for why, old, new in (
        ("the kernel splits by block already", "tileNum = (", "tileNum = GetBlockIdx() + ("),
        ("a break", "CopyOut(i, n);", "CopyOut(i, n);\n      if (n < tileLength) break;"),
        ("a step other than one", loop, "for (uint32_t i = 0; i < tileNum; i += 2) {"),
        ("a bound by !=", loop, "for (uint32_t i = 0; i != tileNum; i++) {"),
        ("not a method the entry calls", "op.Process();", "op.Init(x, y, t.total, 2048);"),
    ):
        assert rule.apply(_edited(reciprocal, path, old, new)) is None, why
    # A loop nested in the tile loop is the tile's own: only the outer one is split.
    nested = _edited(
        reciprocal,
        path,
        "CopyOut(i, n);",
        "CopyOut(i, n);\n      for (uint32_t k = 0; k < 1; k++) {}",
    )
    kernel = rule.apply(nested).kernel_source
    assert kernel.count("GetBlockIdx") == 1 and "for (uint32_t k = 0; k < 1; k++) {}" in kernel
    assert rule.apply(_real("neg")) is None  # reads GetBlockIdx: its work is split already


def test_split_tile_loops_lifts_the_template_s_core_limits():
    """A search's tiling may have capped the cores or set a block-dim knob low: the split launches
    every vector core again, within the knobs' ranges."""
    reciprocal = _real("reciprocal")
    rule = rewrites.by_name("split_tile_loops")
    for marker, launch, lifted in (
        ("tuneCoreCap = 1;  // @tune core_cap in [1, 64] pow2", "tuneCoreCap", "tuneCoreCap = 64;"),
        (
            "tuneBlockDim = 2;  // @tune block_dim in [1, 48] step 1",
            "tuneBlockDim",
            "tuneBlockDim = 40;",
        ),
    ):
        tiling = reciprocal.tiling_source.replace(
            "  context->SetBlockDim(1);",
            f"  constexpr uint32_t {marker}\n  context->SetBlockDim({launch});",
        )
        new = rule.apply(reciprocal.with_sources(tiling=tiling))
        assert lifted in new.tiling_source, marker


def _single_core_matmul():
    """Our matmul (tests/agents/real_layouts/samples) as the Matmul samples' single-core program
    writes it: a MatmulApiTiling, SetBlockDim(1), and the kernel's blocks past the first returning
    though it places each block's part of C by its block index."""
    matmul = _real("matmul_custom")
    single = _edited(
        matmul,
        "op_host/matmul_custom.cpp",
        "MultiCoreMatmulTiling cubeTiling(ascendcPlatform);\n  cubeTiling.SetDim(2);",
        "MatmulApiTiling cubeTiling(ascendcPlatform);",
    )
    return _edited(
        single,
        single.kernel_path,
        "if (blockIdx >= tiling.usedCoreNum) {",
        "if (GetBlockIdx() >= 1) {",
    )


def _whole_matmul():
    """Our matmul as single-core tutorials write theirs: the kernel never reads its block index
    and gives one Matmul all of A, B and C."""
    single = _single_core_matmul()
    kernel = single.kernel_source
    kernel = (
        kernel[: kernel.index("  const int32_t blockIdx")]
        + kernel[kernel.index("  GlobalTensor<half>") :]
    )
    kernel = re.sub(
        r"(SetTensorA|SetTensorB|SetBias|IterateAll)\((\w+)\[[^\]]*\]\)", r"\1(\2)", kernel
    )
    kernel = kernel.replace("  matmulObj.SetTail(tailM, tailN);\n", "")
    assert "GetBlockIdx" not in kernel and "matmulObj.IterateAll(cGlobal);" in kernel
    return single.model_copy(update={"files": {**single.files, single.kernel_path: kernel}})


@pytest.mark.parametrize("form", ["guarded", "whole"])
def test_a_single_core_matmul_is_split_over_every_core(form, tmp_path):
    single = _single_core_matmul() if form == "guarded" else _whole_matmul()
    rule = rewrites.by_name("matmul_multi_core")
    new = rule.apply(single, "Ascend910B4")
    assert (
        "MultiCoreMatmulTiling cubeTiling(ascendcPlatform);\n  cubeTiling.SetDim(40);"
        in new.tiling_source
    )
    assert "context->SetBlockDim(20);" in new.tiling_source  # the 910B4's cube cores
    kernel = new.kernel_source
    if form == "guarded":
        assert "if (GetBlockIdx() >= tiling.usedCoreNum) {" in kernel
    else:  # each block's operands start where the split puts its part of C
        assert "matmulObj.SetTensorA(aGlobal[ascendGymRow * tiling.Ka]);" in kernel
        assert "matmulObj.SetTensorB(bGlobal[ascendGymCol]);" in kernel
        assert "matmulObj.SetBias(biasGlobal[ascendGymCol]);" in kernel
        assert "matmulObj.IterateAll(cGlobal[ascendGymRow * tiling.N + ascendGymCol]);" in kernel
        assert kernel.index("matmulObj.SetTail(") < kernel.index("matmulObj.IterateAll(")
    assert rule.apply(new, "Ascend910B4") is None  # a multi-core program now
    _check(new, tmp_path / "check")
    # 80.3 -> 38.6 us guarded, 152.7 -> 38.5 us whole (both AIVs of the one AIC computed all of
    # C) on the bench case, cold: the launch head of 40 blocks is paid too
    assert _bench_latency(new, tmp_path / "new") < _bench_latency(single, tmp_path / "base") / 2


def test_a_single_core_matmul_stays_where_the_split_is_not_provable():
    single = _single_core_matmul()
    rule = rewrites.by_name("matmul_multi_core")
    path = single.kernel_path
    whole = _whole_matmul()
    for why, package in (
        ("no single-core guard", _edited(single, path, "GetBlockIdx() >= 1", "blockIdx >= 1")),
        (
            "the guard is the only read of the block index",
            _edited(
                single,
                path,
                "const int32_t blockIdx = GetBlockIdx();",
                "const int32_t blockIdx = 0;",
            ),
        ),
        (
            "two TCubeTilings: which one splits is not known",
            _edited(single, path, "TPipe pipe;", "TPipe pipe;\n  TCubeTiling other;"),
        ),
        (
            "a block dim the program already chose",
            _edited(single, "op_host/matmul_custom.cpp", "SetBlockDim(1)", "SetBlockDim(2)"),
        ),
        (
            "a transposed A",
            _edited(whole, path, "SetTensorA(aGlobal);", "SetTensorA(aGlobal, true);"),
        ),
        ("an NZ operand", _edited(whole, path, "CubeFormat::ND, half", "CubeFormat::NZ, half")),
        (
            "rows padded to 32 B (ND_ALIGN)",
            _edited(whole, path, "CubeFormat::ND, float", "CubeFormat::ND_ALIGN, float"),
        ),
        (
            "an offset operand",
            _edited(whole, path, "IterateAll(cGlobal);", "IterateAll(cGlobal[64]);"),
        ),
        (
            "two matmuls",
            _edited(
                whole,
                path,
                "matmulObj.End();",
                "matmulObj.IterateAll(cGlobal);\n  matmulObj.End();",
            ),
        ),
    ):
        assert rule.apply(package, "Ascend910B4") is None, why
    assert rule.apply(_real("matmul_custom"), "Ascend910B4") is None  # multi-core already
