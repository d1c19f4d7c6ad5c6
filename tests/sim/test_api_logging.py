"""Every logging and check macro of the Ops base libraries' headers (opbase op_common/log/log.h,
ops-nn common/inc/error_util.h) on a tiling of ours: the reports and log levels log and change no
control flow; the check macros run their action only when their condition holds, and a report in
a failed check fails the tiling; the device build compiles the library's checks away."""

import numpy as np
import pytest
from conftest import HOST

X = {"x": np.zeros(8, np.float32)}
OUT = {"z": ("int64", (8,))}
WRITE = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  zg.SetValue(0, t.p[0]);"""

# The predefined reports (their arguments strings; tensor counts and input indexes integers), the
# log levels with and without variadic arguments, and the checks with false conditions.
REPORTS = """const char* op = ctx->GetNodeName();
  const std::string s = "[2, 3]";
  OP_LOGE_WITH_INVALID_INPUT_SHAPE(op, 0, s, "[2, 4]");
  OP_LOGE_WITH_INVALID_ATTR(op, "axis", "5", "[0, 2)");
  OP_LOGE_WITH_INVALID_ATTR_SIZE(op, "perm", "3", "2");
  OP_LOGE_WITH_INVALID_INPUT(op, "x");
  OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(op, 1, "6", "8");
  OP_LOGE_WITH_INVALID_INPUT_FORMAT(op, "x", "NCHW", "ND");
  OP_LOGE_WITH_INVALID_INPUT_DTYPE(op, "x", "int8", "float16, float");
  OP_LOGE_FOR_INVALID_SHAPE(op, "x", s, "[2, 4]");
  OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(op, "x", s, "rank 2 needed");
  OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(op, "x, y", s, "not broadcastable");
  OP_LOGE_FOR_INVALID_SHAPEDIM(op, "x", "3", "4");
  OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(op, "x", "3", "odd");
  OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(op, "x, y", "3, 5", "differ");
  OP_LOGE_FOR_INVALID_SHAPESIZE(op, "x", "6", "8");
  OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(op, "x", "6", "too small");
  OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(op, "x, y", "6, 8", "differ");
  OP_LOGE_FOR_INVALID_FORMAT(op, "x", "NCHW", "ND");
  OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(op, "x", "NCHW", "ND only");
  OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(op, "x, y", "NCHW, ND", "differ");
  OP_LOGE_FOR_INVALID_DTYPE(op, "x", "int8", "float");
  OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(op, "x", "int8", "float only");
  OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(op, "x, y", "int8, float", "differ");
  OP_LOGE_FOR_INVALID_TENSORNUM(op, "x", 3, "2");
  OP_LOGE_FOR_INVALID_TENSORNUMS_WITH_REASON(op, "x, y", "3, 2", "differ");
  OP_LOGE_FOR_INVALID_VALUE(op, "alpha", "-1", "positive");
  OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(op, "alpha", "-1", "negative");
  OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(op, "alpha, beta", "-1, 0", "negative");
  OP_LOGE_FOR_INVALID_LISTSIZE(op, "perm", "3", "2");
  OP_LOGE_FOR_INVALID_LISTSIZE_WITH_REASON(op, "perm", "3", "rank 2");
  OP_LOGE_FOR_INVALID_STRIDE(op, "x", "3", "1");
  OP_LOGE_FOR_INVALID_ARGUMENT_WITH_REASON(op, "x", "null");
  OP_LOGE_FOR_INVALID_GRAPH_NODE(op, "no inputs");
  OP_LOGE_FOR_FILE_PATH(op, "/tmp/a", "absent");
  OP_LOGE_FOR_FILE_OPEN(op, "/tmp/a", "denied");
  OP_LOGE_FOR_FILE_PARSE(op, "/tmp/a", "not json");
  OP_LOGE_FOR_INVALID_CONFIG(op, "cfg.json", "tile", "0", "> 0");
  OP_LOGE_FOR_INVALID_CONFIG_WITH_REASON(op, "cfg.json", "tile", "0", "zero");
  OP_LOGE_FOR_INVALID_CONFIGS_WITH_REASON(op, "cfg.json", "tile, depth", "0, 0", "zero");
  OP_LOGE(ctx, "plain %d", DLOG_ERROR);
  OP_LOGE(op, "no arguments");
  OP_LOGE_WITHOUT_REPORT(ctx, "quiet %s", OP_SUBMOD_NAME);
  OP_LOGW(ctx, "w %d", DLOG_WARN); OP_LOGI(ctx, "i %d", DLOG_INFO); OP_LOGD(ctx, "d %d", DLOG_DEBUG);
  D_OP_LOGD(op, "direct"); D_OP_LOGE(op, "direct %d", OP_MODULE_ID);
  OPS_LOG_E(op, "e"); OPS_LOG_W(op, "w %d", 1); OPS_LOG_I(op, "i"); OPS_LOG_D(op, "d %d", 2);
  CUBE_INNER_ERR_REPORT(op, "cube %d", 1);
  VECTOR_INNER_ERR_REPORT_TILIING(op, "vector");
  OPS_REPORT_VECTOR_INNER_ERR(op, "vector %d", 2);
  OPS_REPORT_CUBE_INNER_ERR(op, "cube");
  OP_LOGW_IF(p[0] < 0, op, "negative %ld", p[0]);
  OP_CHECK_IF(p[0] < 0, OP_LOGE(op, "negative"), return ge::GRAPH_FAILED);
  OP_CHECK_NULL_WITH_CONTEXT(ctx, attrs);
  OPS_CHECK_NULL_WITH_CONTEXT(ctx, params);"""

# Check macros whose condition p[0] selects: 1 fails the first, 2 the second, ...
CHECKS = """const gert::Shape* none = p[0] == 1 ? nullptr : &ctx->GetInputShape(0)->GetStorageShape();
  OP_CHECK_NULL_WITH_CONTEXT(ctx, none);
  OPS_ERR_IF(p[0] == 2, OPS_LOG_E(ctx, "two"), return ge::GRAPH_FAILED);
  OP_LOGE_IF(p[0] == 3, ge::GRAPH_FAILED, ctx, "three %ld", p[0]);
  OP_TILING_CHECK(p[0] == 4, VECTOR_INNER_ERR_REPORT_TILIING(ctx, "four"), return ge::GRAPH_FAILED);
  OP_CHECK_IF(p[0] == 5, OP_LOGE_FOR_INVALID_VALUE(ctx->GetNodeName(), "p", "5", "not 5"), return ge::GRAPH_FAILED);"""


def _host(code: str) -> str:
    return ('#include <string>\n#include "error_util.h"\n' + HOST).replace(
        "t.set_p(p);", code + "\n  t.set_p(p);"
    )


def test_reports_and_levels_log_and_go_on(kernel):
    r = kernel(WRITE, X, OUT, host=_host(REPORTS), params=[7]).ok()
    assert int(r.outputs["z"][0]) == 7


@pytest.mark.parametrize("fail", [0, 1, 2, 3, 4, 5])
def test_checks_run_their_action_when_the_condition_holds(kernel, fail):
    r = kernel(WRITE, X, OUT, host=_host(CHECKS), params=[fail])
    if fail == 0:
        assert r.ok().outputs["z"][0] == 0
    else:
        assert r.status == "TILING_ERROR" and "GRAPH_FAILED" in r.message


OP_BASE_REPORTS = """  // Every report only logs: the tiling goes on.
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


def test_device_build_compiles_away_the_library_checks(kernel):
    # ASCENDC_ASSERT and KERNEL_LOG are empty in the device build: a false condition does not
    # stop the kernel and the log's level names need not exist. `__tiling_data_ptr__` is the
    # generated tiling header's qualifier for GET_TILING_DATA_PTR_WITH_STRUCT's pointer.
    prelude = """#include "lib/math/sin.h"
__aicore__ inline int64_t First(__tiling_data_ptr__ SimkTilingData* t) { return t->p[0]; }"""
    body = """GET_TILING_DATA_PTR_WITH_STRUCT(SimkTilingData, t, tiling);
  ASCENDC_ASSERT(false, { KERNEL_LOG(KERNEL_ERROR, "never %d", undeclared_name); });
  GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  zg.SetValue(0, First(t) + 1);"""
    r = kernel(
        body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, params=[41], prelude=prelude
    ).ok()
    assert r.outputs["z"][0] == 42


def test_reports_log_and_the_type_names_log_sizes_securec_and_graph_descs_answer(kernel):
    # Log2 of half: 1000 float intermediates (4000 B), at least one repeat; Log: none; 2 nodes.
    assert _words(OP_BASE_REPORTS, kernel) == [1, 1, 4000, 256, 20, 1, 31, 110]


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


def test_error_util_and_the_per_type_runtime_headers(kernel):
    # ops-nn tilings include the graph runtime's types one header at a time and check with
    # OP_TILING_CHECK; a failed check reports through VECTOR_INNER_ERR_REPORT_TILIING.
    includes = """#include "error_util.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tiling_context.h"
#include "platform/platform_infos_def.h"
#include "op_host/util/platform_util.h"
"""
    host = includes + HOST.replace(
        "  t.set_p(p);",
        """  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  OP_TILING_CHECK(Shape2String(x) != "[2, 4]",
                  VECTOR_INNER_ERR_REPORT_TILIING(ctx, "x is %s", Shape2String(x).c_str()),
                  return ge::GRAPH_NULL_PTR);
  p[0] = Ops::Base::GetUbBlockSize(ctx);
  t.set_p(p);""",
    )
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]);"""
    ok = kernel(body, {"x": np.zeros((2, 4), np.float32)}, {"z": ("int64", (4,))}, host=host).ok()
    assert ok.outputs["z"][0] == 32
    failed = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=host)
    assert failed.status == "TILING_ERROR"  # the check returned GRAPH_NULL_PTR
