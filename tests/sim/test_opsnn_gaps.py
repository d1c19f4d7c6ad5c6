"""What hicann/ops-nn operators needed beyond the op-base headers they already found: the op
base's predefined error reports, ge::TypeUtils serial names, errno_t, graph-mode operator
descriptions and check registration, the Log tiling sizes, the bare op_host include path; on the
kernel side Trap, TEventID, the pattern reductions with the library's own temporary space,
__NPU_ARCH__, and a tiling header whose TilingData sits in a package header of its own."""

import numpy as np
from conftest import HOST

# Host code of our own, spliced into the standard test tiling before it stores p[].
INCLUDES = """#include "tiling_util.h"  // ops-nn's tiling include path names common/inc/op_host
#include "graph/utils/type_utils.h"
#include "securec.h"
#include "tiling/math/log_tiling.h"

static ge::graphStatus SimkSupported(const ge::Operator& op, ge::AscendString& result) {
  const bool ok = op.GetInputDesc("x").GetShape().GetDimNum() == 2;
  result = ge::AscendString(ok ? "supported" : "unsupported");
  return ok ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
static int32_t SampleSupported(const ge::Operator&, ge::AscendString&) { return 0; }  // the samples' signature
static int simk_check_registered = [] {
  optiling::OpCheckFuncHelper(FUNC_CHECK_SUPPORTED, "Simk", SimkSupported);
  return 0;
}();
"""

REPORTS = """  // Every report only logs: the tiling goes on.
  OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(ctx->GetNodeName(), "x", std::to_string(3).c_str(), "a reason");
  OP_LOGE_FOR_INVALID_SHAPEDIM(ctx->GetNodeName(), std::string("x"), "3", "2");
  OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(ctx->GetNodeName(), "x", "9", std::string("too large"));
  OP_LOGE_FOR_INVALID_TENSORNUM(ctx->GetNodeName(), "x", 3, "1");
  OP_LOGE_FOR_INVALID_DTYPE(ctx->GetNodeName(), "x", Ops::Base::ToString(ge::DT_BF16).c_str(), "DT_FLOAT");
  OP_LOGE_WITH_INVALID_INPUT_SHAPE(ctx->GetNodeName(), 0, "[3]", "[2, 4]");
  const gert::CompileTimeTensorDesc* desc = ctx->GetInputDesc(0);
  p[0] = ge::TypeUtils::DataTypeToSerialString(desc->GetDataType()) == "DT_FLOAT";
  p[1] = ge::TypeUtils::FormatToSerialString(desc->GetFormat().GetStorageFormat()) == "ND" &&
         std::string(ge::TypeUtils::DataTypeToAscendString(ge::DT_BF16).GetString()) == "DT_BF16";
  uint32_t maxTmp = 7, minTmp = 7, nodes = 7, extra = 7;
  AscendC::GetLog2MaxMinTmpSize(ge::Shape({1000}), 2, false, maxTmp, minTmp);
  p[2] = maxTmp;
  p[3] = minTmp;
  AscendC::GetLogMaxMinTmpSize(ge::Shape({1000}), 4, false, maxTmp, minTmp);
  AscendC::GetLog2TmpBufferFactorSize(2, nodes, extra);
  p[4] = maxTmp + minTmp + 10 * nodes + extra;
  char dst[4] = {1, 1, 1, 1};
  const char src[8] = {};
  const errno_t e = memcpy_s(dst, sizeof(dst), src, sizeof(src));
  p[5] = e != EOK && dst[0] == 0;
  ge::Operator op;
  op.UpdateInputDesc("x", ge::TensorDesc(ge::Shape({2, 3})));
  ge::AscendString result;
  p[6] = op.GetInputDesc("x").GetShape().GetDim(1) * 10 + (SimkSupported(op, result) == ge::GRAPH_SUCCESS);
  ops::OpAICoreDef core, sample;
  core.SetCheckSupport(SimkSupported);
  sample.SetCheckSupport(SampleSupported);  // accepted, not kept
  // A name it does not have gives an empty description.
  p[7] = op.GetInputDesc("y").GetShape().GetDimNum() + 10 * (core.GetCheckSupport() == SimkSupported) +
         100 * (sample.GetCheckSupport() == nullptr);
"""


def _words(body_host: str, kernel) -> list[int]:
    host = INCLUDES + HOST.replace("  t.set_p(p);", body_host + "  t.set_p(p);")
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  for (int i = 0; i < 8; ++i) zg.SetValue(i, t.p[i]);"""
    r = kernel(body, {"x": np.zeros((2, 4), np.float32)}, {"z": ("int64", (8,))}, host=host).ok()
    return list(r.outputs["z"])


def test_reports_log_and_the_type_names_log_sizes_securec_and_graph_descs_answer(kernel):
    # Log2 of half: 1000 float intermediates (4000 B), at least one repeat; Log: none; 2 nodes.
    assert _words(REPORTS, kernel) == [1, 1, 4000, 256, 20, 1, 31, 110]


def test_a_report_inside_a_failed_check_fails_the_tiling(kernel):
    failing = """  OP_CHECK_IF(ctx->GetInputShape(0)->GetStorageShape().GetDim(0) != 3,
              OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(ctx->GetNodeName(), "x", "[2, 4]", "dim 0 must be 3"),
              return ge::GRAPH_FAILED);
"""
    host = INCLUDES + HOST.replace("  t.set_p(p);", failing + "  t.set_p(p);")
    r = kernel(
        "GET_TILING_DATA(t, tiling);",
        {"x": np.zeros((2, 4), np.float32)},
        {"z": ("int64", (8,))},
        host=host,
    )
    assert r.status == "TILING_ERROR"


def test_trap_stops_the_kernel(kernel):
    body = "if (GetBlockIdx() == 0) { AscendC::Trap(); }"
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("float32", (8,))})
    assert r.status == "RUNTIME_ERROR" and "Trap" in r.message


def test_pattern_reduce_with_the_librarys_temporary_space_and_an_allocated_event(kernel):
    # RA over a [4, 16] float tile (the library's own temporary space, no sharedTmpBuffer) and AR
    # after an event id taken from the pipe; the kernel sees the A2's __NPU_ARCH__.
    x = np.arange(64, dtype=np.float32).reshape(4, 16) / 8
    body = """TPipe pipe; TBuf<TPosition::VECCALC> bx, bc, br;
  pipe.InitBuffer(bx, 256); pipe.InitBuffer(bc, 64); pipe.InitBuffer(br, 64);
  GlobalTensor<float> xg, cg, rg; xg.SetGlobalBuffer((__gm__ float*)x, 64);
  cg.SetGlobalBuffer((__gm__ float*)cols, 16); rg.SetGlobalBuffer((__gm__ float*)rows, 16);
  LocalTensor<float> lx = bx.Get<float>(), lc = bc.Get<float>(), lr = br.Get<float>();
  DataCopy(lx, xg, 64);
  TEventID ev = GetTPipePtr()->AllocEventID<HardEvent::MTE2_V>();
  SetFlag<HardEvent::MTE2_V>(ev); WaitFlag<HardEvent::MTE2_V>(ev);
  GetTPipePtr()->ReleaseEventID<HardEvent::MTE2_V>(ev);
  uint32_t shape[2] = {4, 16};
  ReduceSum<float, Pattern::Reduce::RA, true>(lc, lx, shape, true);
  ReduceMax<float, Pattern::Reduce::AR, false>(lr, lx, shape, true);
#if __NPU_ARCH__ == 2201
  Duplicate(lr[8], 2201.0f, 8);
#endif
  TEventID out = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
  SetFlag<HardEvent::V_MTE3>(out); WaitFlag<HardEvent::V_MTE3>(out);
  DataCopy(cg, lc, 16); DataCopy(rg, lr, 16);"""
    r = kernel(body, {"x": x}, {"cols": ("float32", (16,)), "rows": ("float32", (16,))}).ok()
    np.testing.assert_allclose(r.outputs["cols"], x.sum(axis=0), rtol=1e-6)
    np.testing.assert_array_equal(r.outputs["rows"][:4], x.max(axis=1))
    np.testing.assert_array_equal(r.outputs["rows"][8:], 2201)


def test_toolkit_headers_of_a_tiling_headers_own_package_header_stay_global(kernel):
    # The TilingData sits in simk_tiling_def.h, which includes toolkit headers; the kernel's view
    # of simk_tiling.h must parse those at global scope, not inside its wrapping namespace.
    definition = """#pragma once
#include <cstdint>
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(SimkTilingData)
TILING_DATA_FIELD_DEF_ARR(int64_t, 8, p);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)
}  // namespace optiling
"""
    tiling_h = """#pragma once
#include "simk_tiling_def.h"
namespace optiling {
// A host tiling class beside the data, as ops-nn's gelu_quant keeps it.
class SimkTiling {
 public:
  explicit SimkTiling(gert::TilingContext* context) : context_(context) {}
 private:
  gert::TilingContext* context_;
};
}  // namespace optiling
"""
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  zg.SetValue(0, t.p[0] + 1);"""
    r = kernel(
        body,
        {"x": np.zeros(8, np.float32)},
        {"z": ("int64", (8,))},
        params=[41],
        tiling_h=tiling_h,
        files={"op_host/simk_tiling_def.h": definition},
    ).ok()
    assert r.outputs["z"][0] == 42
