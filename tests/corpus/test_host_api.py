"""The host API of issue 52's seventh round through a real daemon.

CANN host headers and members on a tiling of ours: graph/operator.h, aclnn/aclnn_base.h,
aclnn/opdev/platform.h and op_log.h, acl/acl_rt.h, fe::PlatFormInfos::GetPlatformRes,
AscendC::BLOCK_CUBE on the host and the SoftMax family's tiling helpers: the tiling computes
eight words, the kernel writes them out and the reference holds what the documentation and the
SoC preset (Ascend910B4, the default) give.

OpParamDef::InitValue: the launch writes the output's initial value into its GM before the
kernel, as the device's op framework does, so an operator whose kernel writes part of its output
(an accumulating scatter, a padded gradient) passes with the rest at that value. Each documented
form: the uint64_t 0 (cleared), a ScalarVar of the output's type, and the list form whose value is
the one of the DataType column holding the output's type."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon.backends.sim.calibration.anchors import model_constants

TILING_H = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(HostWordsTilingData)
TILING_DATA_FIELD_DEF_ARR(int64_t, 8, p);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HostWords, HostWordsTilingData)
}  // namespace optiling
"""

HOST = """#include <string>
#include "acl/acl_rt.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_log.h"
#include "aclnn/opdev/platform.h"
#include "graph/operator.h"
#include "host_words_tiling.h"
#include "platform/platform_info.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

using AscendC::BLOCK_CUBE;

namespace optiling {
static int64_t Number(fe::PlatFormInfos* infos, const char* label, const char* key) {
  std::string value;
  return infos->GetPlatformRes(label, key, value) ? std::stoll(value) : -1;
}
static aclnnStatus CheckName(const ge::Operator& op) {
  ge::AscendString name;
  CHECK_RET(op.GetName(name) == ge::GRAPH_SUCCESS, 1);
  OP_LOGE_IF(std::string(name.GetString()) != "gate", 2, "HostWords", "name %s", name.GetString());
  return OK;
}
// A view's strides, as the gert::Stride pages' examples build and read them.
static int64_t Strides() {
  gert::Stride s({3, 256, 256});
  s.AppendStride(1024).SetStride(0U, 1);  // 1, 256, 256, 1024
  const gert::Stride t({1, 256, 256});
  return static_cast<int64_t>(s.GetDimNum()) * 10 + (s != t) + (s[3] == 1024) * 100 +
         (s.GetStride(gert::Stride::kMaxDimNum) == gert::Stride::kInvalidStrideValue) * 1000;
}
static ge::graphStatus HostWordsTiling(gert::TilingContext* ctx) {
  HostWordsTilingData t;
  fe::PlatFormInfos* infos = ctx->GetPlatformInfo();
  std::string version;
  const bool named = infos->GetPlatformRes("version", "Short_SoC_version", version) && version == "Ascend910B";
  const bool unknown = infos->GetPlatformRes("NoSuchLabel", "key", version);
  const op::PlatformInfo& platform = op::GetCurrentPlatformInfo();
  char package[] = "asc-devkit";
  int32_t number = 0;
  int64_t p[8] = {
      Number(infos, "SoCInfo", "ai_core_cnt"),
      Number(infos, "AICoreSpec", "ub_size"),
      named * 10 + unknown,
      BLOCK_CUBE,
      AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({8, 64}), 2, false, false),
      AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({8, 64}), 4, true, false),
      platform.GetCubeCoreNum() * 1000 + platform.GetVectorCoreNum(),
      (aclsysGetVersionNum(package, &number) != ACL_SUCCESS) * 100 +
          (std::string(op::ToString(platform.GetSocVersion()).GetString()) == "Ascend910B") * 10 +
          (CheckName(ge::Operator("gate", "Gate")) == OK) +
          // the view queries: every launched tensor is contiguous, so none carries a view
          (!ctx->InputIsView(0) && !ctx->OutputIsView(0) && !ctx->RequiredInputIsView(0) &&
           ctx->GetInputStride(0) == nullptr && ctx->GetInputOffset(0) == -1 &&
           ctx->GetRequiredInputOffset(0) == -1) * 1000 +
          Strides() * 10000};
  t.set_p(p);
  ctx->SetBlockDim(1);
  t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
  ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HostWords : public OpDef {
 public:
  explicit HostWords(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT64});
    this->AICore().SetTiling(optiling::HostWordsTiling).AddConfig("ascend910b");
  }
};
OP_ADD(HostWords);
}  // namespace ops
"""

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void host_words(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  GlobalTensor<int64_t> zg;
  zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  for (int i = 0; i < 8; ++i) zg.SetValue(i, t.p[i]);
}
"""

# Ascend910B4: 20 cube and 40 vector cores, a 192 KiB UB. SoftmaxGrad on 8 rows of 64: half keeps
# two blocks, three copies of a row and a 64-word unit per row (8 x 288 words); float with isFront
# one block, the row and the unit (136 words), in bytes.
REFERENCE = """import numpy as np


def host_words(x):
    return np.array([20, 196608, 10, 16, 8 * 288 * 4, 136 * 4, 20040, 11411111], np.int64)
"""

SPEC = """name = "host_words"
level = 1
category = "test"
inputs = [{ name = "x", dtypes = ["float32"] }]
outputs = [{ name = "z", dtypes = ["int64"] }]
reference = "reference:host_words"
[[cases]]
name = "c"
dtype = "float32"
bench = true
shapes = { x = [8], z = [8] }
dtypes = { x = "float32", z = "int64" }
"""


def write_package(root: Path, files: dict[str, str]):
    """The package of an operator of ours: `files` by path under `root` (op.toml, reference.py,
    op_host/..., op_kernel/...)."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return load_package(root)


def checked(client, run_id: str, pkg) -> tuple[Status, str]:
    result = client.evaluate(
        EvalRequest(run_id=run_id, package=pkg, stages=[Stage.COMPILE, Stage.CHECK])
    )
    return result.status, result.message


def test_the_new_host_headers_build_and_answer_as_documented(client, tmp_path):
    files = {
        "op.toml": SPEC,
        "reference.py": REFERENCE,
        "op_host/host_words_tiling.h": TILING_H,
        "op_host/host_words.cpp": HOST,
        "op_kernel/host_words.cpp": KERNEL,
    }
    status, message = checked(client, "host-words", write_package(tmp_path / "host_words", files))
    assert status is Status.OK, message


# ---- OpParamDef::InitValue ----

INIT_TILING_H = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(HeadCopyTilingData)
TILING_DATA_FIELD_DEF(uint32_t, head);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HeadCopy, HeadCopyTilingData)
}  // namespace optiling
"""

INIT_HOST = """#include "register/op_def_registry.h"
#include "head_copy_tiling.h"

namespace optiling {
static ge::graphStatus HeadCopyTiling(gert::TilingContext* ctx) {
  HeadCopyTilingData t;
  t.set_head(static_cast<uint32_t>(ctx->GetInputShape(0)->GetStorageShape().GetShapeSize() / 2));
  ctx->SetBlockDim(1);
  t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
  ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HeadCopy : public OpDef {
 public:
  explicit HeadCopy(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).INIT;
    this->AICore().SetTiling(optiling::HeadCopyTiling).AddConfig("ascend910b");
  }
};
OP_ADD(HeadCopy);
}  // namespace ops
"""

# The first half of x into y; the second half of y is left to its initial value.
INIT_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void head_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 8192);
  LocalTensor<DTYPE_X> u = buf.Get<DTYPE_X>();
  GlobalTensor<DTYPE_X> xg, yg;
  xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, t.head);
  yg.SetGlobalBuffer((__gm__ DTYPE_X*)y, t.head);
  DataCopy(u, xg, t.head);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, u, t.head);
}
"""

INIT_REFERENCE = """import numpy as np


def head_copy(x):
    y = np.full_like(x, {fill})
    y[: x.size // 2] = x[: x.size // 2]
    return y
"""

INIT_SPEC = """name = "head_copy"
level = 1
category = "test"
inputs = [{{ name = "x", dtypes = ["{dtype}"] }}]
outputs = [{{ name = "y", dtypes = ["{dtype}"] }}]
reference = "reference:head_copy"
[[cases]]
name = "c"
dtype = "{dtype}"
bench = true
shapes = {{ x = [256] }}
"""


def _files(init: str, dtype: str, fill: float) -> dict[str, str]:
    return {
        "op.toml": INIT_SPEC.format(dtype=dtype),
        "reference.py": INIT_REFERENCE.format(fill=fill),
        "op_host/head_copy_tiling.h": INIT_TILING_H,
        "op_host/head_copy.cpp": INIT_HOST.replace("INIT", init),
        "op_kernel/head_copy.cpp": INIT_KERNEL,
    }


FORMS = {
    "cleared": ("InitValue(0)", "float32", 0.0),
    "scalar": ("InitValue(ScalarVar(ScalarType::FLOAT32, 1.5))", "float32", 1.5),
    "column": (
        "InitValue({ScalarVar(ScalarType::FLOAT32, 2.0), ScalarVar(ScalarType::FLOAT16, -3.0)})",
        "float16",
        -3.0,
    ),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_launch_writes_the_initial_value_before_the_kernel(client, tmp_path, form):
    pkg = write_package(tmp_path / "head_copy", _files(*FORMS[form]))
    status, message = checked(client, f"init-{form}", pkg)
    assert status is Status.OK, message


def test_without_init_value_the_unwritten_half_fails(client, tmp_path):
    """The same kernel without InitValue: the half it does not write keeps the launch's fill,
    so the check fails against the zeros the reference expects."""
    pkg = write_package(tmp_path / "head_copy", _files("Version(1)", "float32", 0.0))
    status, message = checked(client, "init-none", pkg)
    assert status is Status.WRONG_ANSWER, message


def test_the_init_value_memset_is_timed_as_a_task_of_its_own(client, tmp_path):
    """The op framework clears an InitValue output with a memset task before the kernel: the launch
    is charged that task's head and bytes on top of the kernel's own head, and reports it."""
    pkg = write_package(tmp_path / "head_copy", _files(*FORMS["cleared"]))
    r = client.evaluate(
        EvalRequest(run_id="memset", package=pkg, stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME])
    )
    assert r.status is Status.OK, r.message
    memset, head = r.profile.model_extra["memset_us"], r.profile.model_extra["head_us"]
    model = model_constants()  # a repeated launch's head on one core (soc/model.toml)
    one_core = model["launch_repeated_us"] + model["launch_repeated_us_per_core"]
    assert memset > one_core
    assert head > memset + one_core  # the kernel's own head besides
    assert r.latency_us > head
