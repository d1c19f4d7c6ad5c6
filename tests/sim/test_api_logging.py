"""Every logging and check macro of the Ops base libraries' headers (opbase op_common/log/log.h,
ops-nn common/inc/error_util.h) on a tiling of ours: the reports and log levels log and change no
control flow; the check macros run their action only when their condition holds."""

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
