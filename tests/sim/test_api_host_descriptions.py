"""Host APIs of tensor and format descriptions and platform info, and the kernel names of issue 52,
on tilings and kernels of ours: the packed format queries of graph/types.h (GetPrimaryFormat,
sub-format and C0), TilingData::Append after a GetTilingData<T>() struct, matmul_tiling's
PlatformInfo constructor, the high-level tiling structs by their AscendC::tiling names (a struct
shared by host and kernel), MatmulImpl, and Broadcast running past its tensors inside the UB as
the device does."""

import numpy as np
from conftest import HOST, UB_HELPERS, tiling_words

from ascend_core.suite.cube_ref import mmad


def test_format_queries_take_the_packed_value_apart(kernel):
    code = """const int32_t f = ge::GetFormatFromC0(ge::GetFormatFromSub(ge::FORMAT_FRACTAL_Z, 3), 5);
  p[0] = ge::GetPrimaryFormat(f);
  p[1] = ge::GetSubFormat(f);
  p[2] = ge::GetC0Value(f);
  p[3] = ge::HasSubFormat(ge::FORMAT_ND) * 10 + ge::HasSubFormat(f);
  p[4] = ge::HasC0Format(ge::FORMAT_NCHW) * 10 + ge::HasC0Format(f);
  p[5] = ge::GetPrimaryFormat(ge::FORMAT_FRACTAL_NZ);
  p[6] = ge::GetC0Value(ge::FORMAT_ND);"""
    words = tiling_words(kernel, "", code)
    assert words[:7] == [4, 3, 16, 1, 1, 29, -1]


def test_tiling_data_appends_within_its_capacity(kernel):
    code = """gert::TilingData td(12);
  const uint32_t three[3] = {7, 8, 9};
  p[0] = td.Append(three, 3) == ge::GRAPH_SUCCESS;
  p[1] = td.Append(three[0]) == ge::GRAPH_FAILED;  // full: nothing written
  p[2] = static_cast<int64_t>(td.GetDataSize());
  p[3] = reinterpret_cast<const uint32_t*>(td.GetData())[2];
  gert::TilingData small(5);
  p[4] = small.Append(static_cast<uint16_t>(5)) == ge::GRAPH_SUCCESS;
  p[5] = small.Append(three, 1) == ge::GRAPH_FAILED;  // 4 bytes into the 3 left
  p[6] = static_cast<int64_t>(small.GetDataSize());"""
    assert tiling_words(kernel, "", code)[:7] == [1, 1, 12, 9, 1, 1, 2]


def test_matmul_tiling_takes_a_platform_info(kernel):
    # The L0C size given: two 128 x 128 fp32 C blocks no longer fit, GetTiling fails; the sizes
    # left 0 keep the A2 core's.
    code = """matmul_tiling::PlatformInfo small;
  small.l0CSize = 32 * 1024;
  matmul_tiling::MultiCoreMatmulTiling a(small), b{matmul_tiling::PlatformInfo{}};
  optiling::TCubeTiling ta, tb;
  for (auto* m : {&a, &b}) {
    m->SetDim(1);
    m->SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    m->SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    m->SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    m->SetShape(256, 256, 256);
    m->SetOrgShape(256, 256, 256);
    m->SetFixSplit(128, 128, -1);
  }
  p[0] = a.GetTiling(ta);
  p[1] = b.GetTiling(tb);
  p[2] = tb.baseM;"""
    assert tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code)[:3] == [-1, 0, 128]


SHARED_STRUCT = """#pragma once
#include <cstdint>
#include "kernel_tiling/kernel_tiling.h"
struct SharedTiling {
  int64_t p[8];
  AscendC::tiling::TCubeTiling cube;
  AscendC::tiling::SoftMaxTiling softmax;
};
"""


def test_a_struct_shared_by_host_and_kernel_names_the_tiling_structs_by_their_kernel_names(kernel):
    # HOST's OpDef, with a tiling that fills the shared struct through GetTilingData<T>().
    host = """#include "register/op_def_registry.h"
#include "../op_kernel/shared_tiling.h"
namespace optiling {
static ge::graphStatus SimkTiling(gert::TilingContext* ctx) {
  auto* t = ctx->GetTilingData<SharedTiling>();
  const gert::ContinuousVector* params = ctx->GetAttrs()->GetListInt(0);
  for (size_t i = 0; i < 8; ++i) t->p[i] = i < params->GetSize() ? static_cast<const int64_t*>(params->GetData())[i] : 0;
  t->cube.set_baseM(96);
  t->softmax.srcM = 7;
  ctx->SetBlockDim(1);
  ctx->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
""" + HOST[HOST.index("namespace ops {") :]
    body = """GET_TILING_DATA_WITH_STRUCT(SharedTiling, t, tiling);
  GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.cube.baseM); zg.SetValue(2, t.softmax.srcM);"""
    r = kernel(
        body,
        {"x": np.zeros(8, np.float32)},
        {"z": ("int64", (8,))},
        params=[41],
        host=host,
        prelude='#include "shared_tiling.h"\n',
        files={"op_kernel/shared_tiling.h": SHARED_STRUCT},
    ).ok()
    assert list(r.outputs["z"][:3]) == [41, 96, 7]


def test_matmul_impl_is_the_matmul_class(kernel):
    prelude = """#include "lib/matmul_intf.h"
using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
static_assert(std::is_same_v<MatmulImpl<A, A, C>, Matmul<A, A, C>>, "MatmulImpl names Matmul");
static_assert(std::is_same_v<AscendC::MatmulImpl<A, A, C, C, CFG_MDL>, Matmul<A, A, C, C, CFG_MDL>>, "");
"""
    body = (
        "GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8); zg.SetValue(0, 52);"
    )
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, prelude=prelude).ok()
    assert r.outputs["z"][0] == 52


# A view of a tensor with a shorter length, as a kernel's own bookkeeping can give it.
SHORT = "template <typename T> LocalTensor<T> Short(LocalTensor<T> t, uint32_t n) { t.SetSize(n); return t; }\n"


def _broadcast(kernel, dst_len: int, rows: int, strict: bool):
    body = f"""Ub ub;
  LocalTensor<float> s = ub.In<float>(x, {rows});
  LocalTensor<float> d = ub.Alloc<float>({rows} * 16);
  SYNC();
  uint32_t dsh[2] = {{{rows}, 16}}, ssh[2] = {{{rows}, 1}};
  Broadcast<float, 2, 1>(Short(d, {dst_len}), s, dsh, ssh);
  SYNC(); ub.Out(z, d, {rows} * 16);"""
    x = np.arange(rows, dtype=np.float32)
    outputs = {"z": ("float32", (rows, 16))}
    return kernel(body, {"x": x}, outputs, prelude=UB_HELPERS + SHORT, strict=strict)


def test_broadcast_runs_past_its_tensor_inside_the_ub_as_the_device_does(kernel):
    # The destination tensor says 16 elements; the [16, 16] result lies in its buffer, inside the
    # UB: the device writes it (a warning by default, an error in strict mode).
    r = _broadcast(kernel, 16, 16, strict=False).ok()
    assert np.array_equal(
        r.outputs["z"], np.repeat(np.arange(16, dtype=np.float32)[:, None], 16, 1)
    )
    assert "Broadcast: the destination needs 256 elements, the tensor has 16" in str(r.result)
    strict = _broadcast(kernel, 16, 16, strict=True)
    assert strict.status == "RUNTIME_ERROR" and "the tensor has 16" in strict.message


def test_an_aiv_sync_all_meets_while_the_aic_serves_the_matmul(kernel):
    # A mixed kernel whose AIVs meet at SyncAll (the vector cores' barrier, its default) after
    # their Matmul: the AIC, parked in REGIST_MATMUL_OBJ serving them, takes no part, as on the
    # device; the run ends and C is right. Before, every core waited for another.
    from tests.sim.test_cube_mix import MM_HOST, MM_KERNEL, MM_TILING_H

    rng = np.random.default_rng(52)
    m, n, k = 128, 256, 128
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((n, k)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    run = kernel(
        MM_KERNEL + "SyncAll();\n",
        {"a": a, "b": b, "bias": bias},
        {"c": ("float32", (m, n))},
        params=[m, n, k, 1, 1, 4, 0, 0],
        block_dim=2,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"',
    ).ok()
    np.testing.assert_array_equal(
        run.outputs["c"], mmad(a, b.T, init=np.broadcast_to(bias, (m, n)))
    )


def test_the_log_and_error_headers_of_cann_and_the_op_base(kernel):
    """CANN's log library and error reports (base/alog_pub.h, base/err_msg.h), the op base's error
    codes (log/error_code.h), the inference contexts' node names, the platform package's class
    header, fe::PlatFormInfos::GetCoreNum and a list attr's untyped data, as tilings of the op base
    include and call them."""
    includes = """#include "base/alog_pub.h"
#include "base/err_msg.h"
#include "log/error_code.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "platform/platform_info_def.h"
#include "graph/ge_error_codes.h"
"""
    code = """p[0] = AlogCheckDebugLevel(OP, DLOG_DEBUG) + (ge::GRAPH_SUCCESS != 0);
  p[1] = AlogCheckDebugLevel(OP, DLOG_ERROR);
  p[2] = Ops::Base::VECTOR_INNER_ERROR;
  p[3] = fe::PlatFormInfos().GetCoreNum();
  gert::InferDataTypeContext dt;
  p[4] = std::string(dt.GetNodeType()).size();
  // A list attr read untyped and cast, as CANN's ContinuousVector::GetData is a const void*.
  p[5] = static_cast<const bool*>(attrs->GetAttrPointer<gert::ContinuousVector>(0)->GetData()) != nullptr;
  if (p[0]) AlogRecord(OP, DLOG_TYPE_DEBUG, DLOG_DEBUG, "never %d", 1);
  if (p[2] < 0) REPORT_INNER_ERR_MSG("E89999", "never %d", 2);"""
    # GetCoreNum: the vector cores of the fixture's SoC, the 910B4's 40
    assert tiling_words(kernel, includes, code)[:6] == [0, 0, 89999, 40, 0, 1]


def test_expand_dims_storage_shape_and_format_as_exe_graph_documents(kernel):
    """gert::ExpandDimsType from a string and a packed mask, both Expand forms (a shape short of
    the axes it does not expand fails), StorageShape's origin and storage shapes, StorageFormat
    with its expand type, and the context's required-input description and tensor shape."""
    code = """auto digits = [](const gert::Shape& s) { int64_t v = 0; for (size_t i = 0; i < s.GetDimNum(); ++i) v = v * 10 + s[i]; return v; };
  gert::Shape out;
  gert::ExpandDimsType("1100").Expand(gert::Shape{5, 7}, out); p[0] = digits(out);
  gert::ExpandDimsType("0101").Expand(gert::Shape{5, 7}, out); p[1] = digits(out);
  gert::Shape inPlace{5, 7}; gert::ExpandDimsType("0101").Expand(inPlace); p[2] = digits(inPlace);
  const gert::ExpandDimsType none("0000");
  p[3] = (none.Expand(gert::Shape{5}, out) == ge::GRAPH_FAILED) * 10 + none.GetFullSize();
  gert::ExpandDimsType((int64_t{2} << 56) | 1).Expand(gert::Shape{9}, out); p[4] = digits(out);
  gert::StorageShape ss({2, 3}, {1, 2, 3});
  p[5] = ss.GetOriginShape().GetDimNum() * 100 + ss.GetStorageShape().GetDimNum() * 10 + (ss.GetShape() == ss.GetOriginShape());
  const gert::StorageFormat sf(ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0, gert::ExpandDimsType("1100"));
  const gert::StorageFormat copy = sf;
  p[6] = sf.GetOriginFormat() * 1000 + sf.GetStorageFormat() * 100 + sf.GetExpandDimsType().GetFullSize() * 10 +
         (sf == copy && sf != gert::StorageFormat());
  p[7] = (ctx->GetRequiredInputDesc(0) == ctx->GetInputDesc(0)) * 100 +
         (ge::GetPrimaryFormat(ctx->GetInputDesc(0)->GetStorageFormat()) == ge::FORMAT_ND) * 10 +
         ctx->GetInputTensor(0)->GetShape().GetStorageShape().GetDimNum();"""
    words = tiling_words(kernel, "", code)
    assert words == [1157, 5171, 5171, 14, 19, 231, 341, 111]


def test_the_graph_tensor_header_gives_the_shape_tiling_helpers_take(kernel):
    """metadef's graph/tensor.h, where a tiling takes ge::Shape from (sgl-kernel-npu's attention
    tilings build their softmax and transpose shapes with it)."""
    code = """const ge::Shape s({2, 3, 5});
  const std::vector<int64_t> dims = s.GetDims();
  p[0] = s.GetDimNum() * 1000 + dims[2] * 100 + s.GetShapeSize();"""
    assert tiling_words(kernel, '#include "graph/tensor.h"\n', code)[0] == 3530


def test_matmul_tiling_names_the_host_half_as_the_toolkit_does(kernel):
    """asc-devkit's matmul_tiling_base.h declares matmul_tiling::half as double in a host build, so
    a tiling under `using namespace matmul_tiling;` sizes a workspace with sizeof(half) == 8
    (sgl-kernel-npu's sparse_block_estimate does); the kernel's half is untouched."""
    code = """using namespace matmul_tiling;
  p[0] = sizeof(half);"""
    assert tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code)[0] == 8
