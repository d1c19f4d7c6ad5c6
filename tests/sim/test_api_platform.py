"""Host platform, context and Matmul tiling queries on a tiling of ours: the op base's platform
helpers agree with PlatformAscendC, the platform description's memory sizes
(fe::PlatFormInfos::GetLocalMemSize), the context reports what the tiling set, shape helpers and
the Matmul tiling's fixed split, single shape and traversal order reach the TCubeTiling."""

import numpy as np
from conftest import HOST, tiling_words

X = {"x": np.zeros(8, np.float32)}
OUT = {"z": ("int64", (8,))}
WRITE = """if (GetBlockIdx() != 0) return;
  GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  for (int i = 0; i < 8; ++i) zg.SetValue(i, t.p[i]);"""


def _host(code: str, includes: str) -> str:
    return (includes + HOST).replace("t.set_p(p);", code + "\n  t.set_p(p);")


def test_op_base_platform_helpers_and_context_getters(kernel):
    code = """using namespace Ops::Base;
  platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  uint64_t ub = 0; plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  p[0] = (GetAivCoreNum(ctx) == plat.GetCoreNumAiv()) * 1000 + (GetAicCoreNum(ctx) == plat.GetCoreNumAic()) * 100 +
         (GetUbSize(ctx) == ub) * 10 + (plat.GetCoreNumVector() == plat.GetCoreNumAiv());
  p[1] = GetUbBlockSize(ctx) * 1000000 + GetVRegSize(ctx) * 1000 + GetCacheLineSize(ctx);
  p[2] = (plat.GetCurNpuArch() == NpuArch::DAV_2201) * 10 + (plat.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B);
  ctx->SetBlockDim(2);
  size_t* ws = ctx->GetWorkspaceSizes(1); ws[0] = 1024;
  p[3] = ctx->GetBlockDim() * 100 + ctx->GetSimdNumBlocks() * 10 + ctx->GetWorkspaceNum();
  const gert::StorageShape* out = ctx->GetOutputShape(0);
  p[4] = out->GetOriginShape().GetShapeSize() * 10 + (ctx->GetOutputDesc(0)->GetDataType() == ge::DT_INT64);
  gert::StorageShape st(gert::Shape{2, 3});
  st.MutableOriginShape().SetDimNum(1);
  p[5] = static_cast<int64_t>(st.GetOriginShape().GetDimNum()) * 10 + st.GetOriginShape().GetDim(0);
  // 0.1f + 0.2f is within a float epsilon of 0.3f; 1e-9 is beyond a double epsilon; NaN equals nothing
  ctx->SetAicpuNumBlocks(3);
  p[7] = GetSectorCacheLineSize(ctx) * 100000 + GetNddmaDcacheSize(ctx) * 10 + ctx->GetAicpuBlockDim() +
         ctx->GetDeterministicLevel() + (GetSimtMaxThreadNum(ctx) == 2048 && GetSimtMaxDCacheSize(ctx) == 131072) * 4;
  p[6] = IsFloatEqual(0.1f + 0.2f, 0.3f) * 100 + IsFloatEqual(1.0, 1.0 + 1e-9) * 10 + IsFloatEqual(NAN, NAN);"""
    host = _host(
        code,
        '#include <cmath>\n#include "op_common/op_host/util/platform_util.h"\n#include "op_common/op_host/util/math_util.h"\n',
    )
    host = host.replace("ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));", "")
    host = host.replace("size_t* ws = ctx->GetWorkspaceSizes(1);\n  ws[0] =", "ws[0] +=")
    r = kernel(WRITE, X, OUT, host=host).ok()
    assert list(r.outputs["z"]) == [1111, 32256256, 11, 221, 81, 12, 100, 12800000 + 81920 + 3 + 4]


def test_matmul_tiling_setters_reach_the_cube_tiling(kernel):
    code = """using namespace matmul_tiling;
  platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  MultiCoreMatmulTiling mt(plat);
  mt.SetDim(2);
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetShape(128, 64, 256); mt.SetOrgShape(128, 64, 256);
  mt.SetFixSplit(32, 32, 64);
  mt.SetSingleShape(64, 64, 256);
  mt.SetTraverse(MatrixTraverse::FIRSTN);
  optiling::TCubeTiling cube;
  p[0] = mt.GetTiling(cube);
  int32_t sm = 0, sn = 0, sk = 0, dim = 0, md = 0, nd = 0;
  mt.GetSingleShape(sm, sn, sk); mt.GetCoreNum(dim, md, nd);
  p[1] = sm * 1000000 + sn * 1000 + sk;
  p[2] = dim * 100 + md * 10 + nd;
  p[3] = cube.baseM * 1000000 + cube.baseN * 1000 + cube.baseK;
  p[4] = cube.iterateOrder * 10 + cube.usedCoreNum;
  MatmulApiTiling one(plat);
  one.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  one.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  one.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  one.SetShape(16, 16, 16); one.SetOrgShape(16, 16, 16);
  p[5] = one.GetTiling(cube) * 1000 + cube.singleCoreM;"""
    host = _host(code, '#include "tiling/tiling_api.h"\n')
    r = kernel(WRITE, X, OUT, host=host).ok()
    assert list(r.outputs["z"][:6]) == [0, 64064256, 221, 32032064, 12, 16]


MATMUL_BY_BASE = """
static int64_t ThroughBase(matmul_tiling::MatmulApiTilingBase& mm, optiling::TCubeTiling& cube) {
  using namespace matmul_tiling;
  mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mm.SetShape(128, 64, 256); mm.SetOrgShape(128, 64, 256);
  mm.SetMatmulConfigParams(1, false, ScheduleType::INNER_PRODUCT, MatrixTraverse::NOSET, true);
  mm.SetMatmulConfigParams(MatmulConfigParams(0));
  return mm.GetTiling(cube);
}
"""


def test_a_tiling_takes_either_matmul_tiling_by_their_base(kernel):
    """asc-devkit's MatmulApiTilingBase: the setters shared, GetTiling each class's own (a
    reference to the base reaches the multi-core split); the config params select kernel
    templates and leave the tiling as it was."""
    code = """using namespace matmul_tiling;
  platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  MultiCoreMatmulTiling multi(plat); multi.SetDim(2);
  MatmulApiTiling one(plat);
  optiling::TCubeTiling a, b;
  p[0] = ThroughBase(multi, a) * 10 + ThroughBase(one, b);
  p[1] = a.usedCoreNum * 10 + b.usedCoreNum;
  p[2] = a.singleCoreM * 1000 + b.singleCoreM;"""
    host = _host(code, '#include "tiling/tiling_api.h"\n').replace(
        "namespace optiling {", MATMUL_BY_BASE + "namespace optiling {", 1
    )
    r = kernel(WRITE, X, OUT, host=host).ok()
    assert list(r.outputs["z"][:3]) == [0, 21, 64128]


def test_platform_infos_report_whole_memories_and_ascendc_what_is_left(kernel):
    code = """uint64_t whole = 0, left = 0;
  ctx->GetPlatformInfo()->GetLocalMemSize(fe::LocalMemType::UB, whole);
  platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::UB, left);
  p[0] = whole; p[1] = left;
  ctx->GetPlatformInfo()->GetLocalMemSize(fe::LocalMemType::L0_C, whole); p[2] = whole;"""
    words = tiling_words(kernel, '#include "platform/platform_infos_def.h"\n', code)
    assert words[:3] == [196608, 196608 - 256, 128 * 1024]


def test_fixpipe_buffer_and_bias_table_sizes_are_the_platforms_aicore_spec(kernel):
    """CoreMemType::FB and ::BT read AICoreSpec's fb0_size and bt_size (asc-devkit's
    PlatformAscendC), the A2 preset's 2 KB fixpipe buffer and 1 KB bias table; the enum keeps the
    documented values (FB 7, BT 8)."""
    code = """platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  uint64_t fb = 0, bt = 0; std::string spec;
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::FB, fb);
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::BT, bt);
  p[0] = fb; p[1] = bt;
  p[2] = static_cast<int64_t>(platform_ascendc::CoreMemType::FB) * 10 + static_cast<int64_t>(platform_ascendc::CoreMemType::BT);
  p[3] = ctx->GetPlatformInfo()->GetPlatformResWithLock("AICoreSpec", "bt_size", spec) ? std::stoll(spec) : -1;"""
    words = tiling_words(kernel, "#include <string>\n", code)
    assert words[:4] == [2048, 1024, 78, 1024]
