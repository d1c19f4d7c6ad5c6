"""Mixed AIC + AIV kernels (ASCEND_IS_AIC / ASCEND_IS_AIV, CrossCoreSetFlag / CrossCoreWaitFlag) and
the Matmul high-level API with matmul_tiling::MultiCoreMatmulTiling, on our own kernels; matmuls
bit-exact against ascend_core/suite/cube_ref.py."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from ascend_core.suite.cube_ref import mmad
from tests.sim.conftest import HOST, TILING_H

MODEL_TOML = Path(__file__).resolve().parents[2] / "npu_daemon/backends/sim/soc/model.toml"
MIX = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n"

# Per group g: the two AIVs scale their 8 rows of x (2 x) into the workspace and signal the AIC,
# which multiplies the 16 x 16 block by w^T and signals back; each AIV adds 1 to its 8 rows of C.
CROSS = """
GM_ADDR user = GetUserWorkspace(workspace);
GlobalTensor<half> gx, gwt, gw; GlobalTensor<float> gc, gy;
gx.SetGlobalBuffer((__gm__ half*)x); gwt.SetGlobalBuffer((__gm__ half*)wt);
gw.SetGlobalBuffer((__gm__ half*)user); gc.SetGlobalBuffer((__gm__ float*)(user + 1024));
gy.SetGlobalBuffer((__gm__ float*)y);
TPipe pipe;
if ASCEND_IS_AIV {
  const int v = GetBlockIdx(), g = v / 2, s = GetSubBlockIdx();
  ASSERT(GetTaskRation() == 2 && GetBlockNum() == 2 && s == v % 2);
  TBuf<> ub; pipe.InitBuffer(ub, 1024);
  LocalTensor<half> t = ub.Get<half>();
  DataCopy(t, gx[(g * 16 + s * 8) * 16], 128);
  SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Muls(t, t, (half)2, 128);
  SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(gw[g * 256 + s * 128], t, 128);
  CrossCoreSetFlag<2, PIPE_MTE3>(5);
  CrossCoreWaitFlag(3);
  SetFlag<HardEvent::MTE3_MTE2>(0); WaitFlag<HardEvent::MTE3_MTE2>(0);
  LocalTensor<float> f = ub.Get<float>();
  DataCopy(f, gc[g * 256 + s * 128], 128);
  SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
  Adds(f, f, 1.0f, 128);
  SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(gy[(g * 16 + s * 8) * 16], f, 128);
}
if ASCEND_IS_AIC {
  const int g = GetBlockIdx();
  ASSERT(GetTaskRation() == 1 && g < 2);
  TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l1, 1024); pipe.InitBuffer(l0a, 512); pipe.InitBuffer(l0b, 512); pipe.InitBuffer(l0c, 1024);
  LocalTensor<half> L1 = l1.Get<half>(), A2 = l0a.Get<half>(), B2 = l0b.Get<half>();
  LocalTensor<float> C = l0c.Get<float>();
  CrossCoreWaitFlag(5);
  DataCopy(L1, gw[g * 256], Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  DataCopy(L1[256], gwt, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
  LoadData(A2, L1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  LoadData(B2, L1[256], LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
  MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
  Mmad(C, A2, B2, mp);
  SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
  Fixpipe(gc[g * 256], C, FixpipeParamsV220(16, 16, 16, 16, false));
  CrossCoreSetFlag<2, PIPE_FIX>(3);
}
"""


def test_cross_core_flags_mixed_kernel(kernel):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((32, 16)).astype(np.float16)
    wt = rng.standard_normal((16, 16)).astype(np.float16)
    run = kernel(
        MIX + CROSS, {"x": x, "wt": wt}, {"y": ("float32", (32, 16))}, block_dim=2, workspace=4096
    ).ok()
    want = np.concatenate([mmad(x[g * 16 : g * 16 + 16] * 2, wt.T) for g in range(2)]) + 1
    np.testing.assert_array_equal(run.outputs["y"], want.astype(np.float32))
    prof = run.result["profile"]
    assert (
        prof["aic_mac_time_us"] > 0
        and prof["aic_fixpipe_time_us"] > 0
        and prof["aiv_vec_time_us"] > 0
    )


def test_cross_core_wait_without_set_deadlocks(kernel):
    body = MIX + "if ASCEND_IS_AIV { CrossCoreWaitFlag(7); }"
    run = kernel(body, {"x": np.zeros(16, np.float16)}, {"y": ("float16", (16,))})
    assert run.status == "RUNTIME_ERROR"
    assert "deadlock" in run.message and "CrossCoreWaitFlag(7)" in run.message


MM_TILING_H = TILING_H.replace(
    "TILING_DATA_FIELD_DEF_ARR(int64_t, 8, p);",
    "TILING_DATA_FIELD_DEF_ARR(int64_t, 8, p);\nTILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);",
).replace(
    '#include "register/tilingdata_base.h"',
    '#include "register/tilingdata_base.h"\n#include "tiling/tiling_api.h"',
)

# p: M, N, K, transB, bias, dim (Matmul objects), C half; blockDim from the tiling (per AIC or AIV).
MM_HOST = HOST.replace(
    "  t.set_p(p);\n  ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
    """  t.set_p(p);
  platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(static_cast<int32_t>(p[5]));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, p[3] != 0);
  mt.SetCType(TPosition::GM, CubeFormat::ND, p[6] ? DataType::DT_FLOAT16 : DataType::DT_FLOAT);
  mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetShape(p[0], p[1], p[2]);
  mt.SetOrgShape(p[0], p[1], p[2]);
  mt.EnableBias(p[4] != 0);
  mt.SetBufferSpace(-1, -1, -1);
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  ctx->SetBlockDim(*attrs->GetInt(1) ? static_cast<uint32_t>(*attrs->GetInt(1)) : t.mm.usedCoreNum);""",
)

# One Matmul object per core (per AIV in the mixed kernel): its block of C from the tiling's split.
MM_KERNEL = """
GET_TILING_DATA(t, tiling);
TPipe pipe;
Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
       MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_C>, MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.mm);
const TCubeTiling& tl = t.mm;
const int idx = GetBlockIdx();
if (idx >= tl.usedCoreNum) return;
const int mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
const int mi = idx % mBlocks, ni = idx / mBlocks;
const bool transB = t.p[3] != 0;
GlobalTensor<half> ga, gb; GlobalTensor<DTYPE_C> gc; GlobalTensor<float> gbias;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b);
gc.SetGlobalBuffer((__gm__ DTYPE_C*)c); gbias.SetGlobalBuffer((__gm__ float*)bias);
mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);
mm.SetTensorB(transB ? gb[ni * tl.singleCoreN * tl.Kb] : gb[ni * tl.singleCoreN], transB);
if (tl.isBias) mm.SetBias(gbias[ni * tl.singleCoreN]);
const int tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, tailN < tl.singleCoreN ? tailN : tl.singleCoreN);
GlobalTensor<DTYPE_C> out = gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN];
if (t.p[7]) {
  while (mm.Iterate()) mm.GetTensorC(out);
} else {
  mm.IterateAll(out);
}
mm.End();
"""


def _mm(
    kernel,
    prelude,
    m,
    n,
    k,
    trans_b,
    bias,
    dim,
    half_out=False,
    iterate=False,
    block_dim=0,
    body=MM_KERNEL,
):
    rng = np.random.default_rng(m + n + k)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((n, k) if trans_b else (k, n)).astype(np.float16)
    bv = rng.standard_normal(n).astype(np.float32)
    run = kernel(
        prelude + body,
        {"a": a, "b": b, "bias": bv},
        {"c": ("float16" if half_out else "float32", (m, n))},
        params=[m, n, k, int(trans_b), int(bias), dim, int(half_out), int(iterate)],
        block_dim=block_dim,
        workspace=0,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"',
    ).ok()
    init = np.broadcast_to(bv, (m, n)) if bias else None
    want = mmad(a, b.T if trans_b else b, init=init)
    return run, want.astype(np.float16) if half_out else want


def test_matmul_api_cube_only(kernel):
    run, want = _mm(kernel, "#define ASCENDC_CUBE_ONLY\n", 256, 192, 320, False, True, 4)
    np.testing.assert_array_equal(run.outputs["c"], want)
    assert run.result["block_dim"] == 4


def test_matmul_api_transposed_b_tails_half_out(kernel):
    run, want = _mm(
        kernel, "#define ASCENDC_CUBE_ONLY\n", 200, 136, 96, True, False, 3, half_out=True
    )
    np.testing.assert_array_equal(run.outputs["c"], want)


def test_matmul_api_iterate_get_tensor_c(kernel):
    run, want = _mm(
        kernel, "#define ASCENDC_CUBE_ONLY\n", 160, 272, 64, False, True, 2, iterate=True
    )
    np.testing.assert_array_equal(run.outputs["c"], want)


def test_matmul_api_mixed_from_aiv(kernel):
    # KERNEL_TYPE_MIX_AIC_1_2 with 2 groups: the 4 AIVs each drive one Matmul block on their AIC.
    run, want = _mm(kernel, "", 128, 256, 128, True, True, 4, block_dim=2)
    np.testing.assert_array_equal(run.outputs["c"], want)
    prof = run.result["profile"]
    assert prof["aic_mac_time_us"] > 0 and prof["aic_mte1_time_us"] > 0


def test_matmul_api_mixed_messages_cost_the_aic_scalar(kernel):
    # MIX mode: each AIV's client posts INIT (REGIST_MATMUL_OBJ), IterateAll and End to its AIC, which
    # spends mm_msg_cycles of scalar work on each; a cube-only launch of the same blocks sends none.
    msg = tomllib.loads(MODEL_TOML.read_text())["mm_msg_cycles"]
    mixed, _ = _mm(kernel, "", 128, 256, 128, True, True, 4, block_dim=2)
    clock_mhz = mixed.result["profile"]["current_freq_mhz"]
    cube, _ = _mm(kernel, "#define ASCENDC_CUBE_ONLY\n", 128, 256, 128, True, True, 4)
    cube_scalar = max(b["aic_scalar_time_us"] for b in cube.result["profile"]["blocks"])
    aics = [b for b in mixed.result["profile"]["blocks"] if "aic_time_us" in b]
    assert len(aics) == 2
    for b in aics:
        extra = b["aic_scalar_time_us"] * clock_mhz - 6 * msg
        assert 0 <= extra <= 2 * cube_scalar * clock_mhz + 50, (b, cube_scalar)


def test_an_aiv_s_own_scalar_work_is_not_charged_to_its_aic(kernel):
    # Each AIV spins a scalar loop before its IterateAll: the loop is the AIV's time, not the AIC's
    # (the AIC, parked meanwhile, receives the message after it). The AIC's scalar time stays that
    # of the messages, as without the loop (test above); the latency grows by about the loop.
    spin = "volatile uint32_t spin = 0;\nfor (uint32_t i = 0; i < 100000; ++i) spin = spin + i;\n"
    plain, _ = _mm(kernel, "", 128, 256, 128, True, True, 4, block_dim=2)
    spun_body = MM_KERNEL.replace("if (t.p[7]) {", spin + "if (t.p[7]) {", 1)
    spun, _ = _mm(kernel, "", 128, 256, 128, True, True, 4, block_dim=2, body=spun_body)
    np.testing.assert_array_equal(spun.outputs["c"], plain.outputs["c"])

    def scalar(run, key):
        return max(b[key] for b in run.result["profile"]["blocks"] if key in b)

    loop_us = scalar(spun, "aiv_scalar_time_us") - scalar(plain, "aiv_scalar_time_us")
    assert loop_us > 20  # the loop is visible, on the AIVs
    assert scalar(spun, "aic_scalar_time_us") == pytest.approx(
        scalar(plain, "aic_scalar_time_us"), rel=0.05, abs=0.5
    )
    assert spun.result["latency_us"] < plain.result["latency_us"] + 1.5 * loop_us


# C in the UB: a C MatmulType at VECIN, each block of Iterate into a VECOUT queue tensor through
# GetTensorC(LocalTensor), doubled on the vector unit and copied to its place in GM (rows and columns
# of tail blocks only).
MM_UB_KERNEL = """
GET_TILING_DATA(t, tiling);
TPipe pipe;
Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
       MatmulType<TPosition::VECIN, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.mm);
const TCubeTiling& tl = t.mm;
const int idx = GetBlockIdx();
if (idx >= tl.usedCoreNum) return;
const int mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
const int mi = idx % mBlocks, ni = idx / mBlocks;
GlobalTensor<half> ga, gb; GlobalTensor<float> gc, gbias;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b);
gc.SetGlobalBuffer((__gm__ float*)c); gbias.SetGlobalBuffer((__gm__ float*)bias);
mm.SetTensorA(ga[mi * tl.singleCoreM * tl.Ka]);
mm.SetTensorB(gb[ni * tl.singleCoreN]);
mm.SetBias(gbias[ni * tl.singleCoreN]);
const int tailM = tl.M - mi * tl.singleCoreM, tailN = tl.N - ni * tl.singleCoreN;
const int sm = tailM < tl.singleCoreM ? tailM : tl.singleCoreM, sn = tailN < tl.singleCoreN ? tailN : tl.singleCoreN;
mm.SetTail(sm, sn);
GlobalTensor<float> out = gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN];
TQue<QuePosition::VECOUT, 1> q;
pipe.InitBuffer(q, 1, tl.baseM * tl.baseN * sizeof(float));
const int mb = (sm + tl.baseM - 1) / tl.baseM, nb = (sn + tl.baseN - 1) / tl.baseN;
for (int i = 0; mm.Iterate(); ++i) {
  LocalTensor<float> ub = q.AllocTensor<float>();
  mm.GetTensorC(ub, 0, true);
  Muls(ub, ub, 2.0f, tl.baseM * tl.baseN);
  q.EnQue(ub);
  ub = q.DeQue<float>();
  const int bm = tl.iterateOrder == 1 ? i / nb : i % mb, bn = tl.iterateOrder == 1 ? i % nb : i / mb;
  const int rows = sm - bm * tl.baseM < tl.baseM ? sm - bm * tl.baseM : tl.baseM;
  const int cols = sn - bn * tl.baseN < tl.baseN ? sn - bn * tl.baseN : tl.baseN;
  DataCopyPad(out[bm * tl.baseM * tl.N + bn * tl.baseN], ub,
              DataCopyExtParams(rows, cols * 4, (tl.baseN - cols) * 4 / 32, (tl.N - cols) * 4, 0));
  q.FreeTensor(ub);
}
mm.End();
"""


def test_matmul_api_get_tensor_c_into_the_ub(kernel):
    # Mixed, 2 groups of 2 AIVs, tails in M and N: the blocks come through the library's GM staging
    # area into each AIV's UB as [baseM, baseN] ND blocks.
    m, n, k = 300, 208, 64
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bv = rng.standard_normal(n).astype(np.float32)
    run = kernel(
        MM_UB_KERNEL,
        {"a": a, "b": b, "bias": bv},
        {"c": ("float32", (m, n))},
        params=[m, n, k, 0, 1, 4, 0, 1],
        block_dim=2,
        workspace=0,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"',
    ).ok()
    want = mmad(a, b, init=np.broadcast_to(bv, (m, n))) * np.float32(2)
    np.testing.assert_array_equal(run.outputs["c"], want)


def test_matmul_api_get_tensor_c_into_the_ub_needs_an_aiv(kernel):
    # On a cube-only launch there is no UB to take the block: a RUNTIME_ERROR naming the call.
    run = kernel(
        "#define ASCENDC_CUBE_ONLY\n"
        + MM_UB_KERNEL.replace("Muls(ub, ub, 2.0f, tl.baseM * tl.baseN);", ""),
        {
            "a": np.zeros((32, 32), np.float16),
            "b": np.zeros((32, 32), np.float16),
            "bias": np.zeros(32, np.float32),
        },
        {"c": ("float32", (32, 32))},
        params=[32, 32, 32, 0, 1, 1, 0, 1],
        block_dim=1,
        workspace=0,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"',
    )
    assert run.result["status"] == "RUNTIME_ERROR", run.result
    assert "GetTensorC into a local tensor runs on an AIV" in run.result["message"]


def test_matmul_api_constant_tiling(kernel):
    # GetMMConfig with MatmulShapeParams and GetMatmulApiTiling: the fixed single-core and base shapes
    # (base 64 x 64 x 32 where the runtime tiling has 128 x 128) and the single-core shape as the
    # original one.
    m, n, k = 128, 128, 64
    static = """
constexpr static MatmulShapeParams shape = {128, 128, 64, 64, 64, 32};
constexpr static MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(shape);
using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr static MatmulApiStaticTiling fixed = GetMatmulApiTiling<AT, AT, CT, CT>(cfg);
static_assert(fixed.baseM == 64 && fixed.singleCoreK == 64 && fixed.Ka == 64 && fixed.dbL0C == 1);
"""
    body = """
GET_TILING_DATA(t, tiling);
TPipe pipe;
Matmul<AT, AT, CT, CT, fixed> mm;
REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.mm);
GlobalTensor<half> ga, gb; GlobalTensor<float> gc, gbias;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b);
gc.SetGlobalBuffer((__gm__ float*)c); gbias.SetGlobalBuffer((__gm__ float*)bias);
mm.SetTensorA(ga); mm.SetTensorB(gb); mm.SetBias(gbias);
int blocks = 0;
while (mm.Iterate()) { mm.GetTensorC(gc); ++blocks; }
mm.End();
ASSERT(blocks == 4);
"""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bv = rng.standard_normal(n).astype(np.float32)
    run = kernel(
        "#define ASCENDC_CUBE_ONLY\n" + body,
        {"a": a, "b": b, "bias": bv},
        {"c": ("float32", (m, n))},
        params=[m, n, k, 0, 1, 1, 0, 1],
        block_dim=1,
        workspace=0,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"\n' + static,
    ).ok()
    np.testing.assert_array_equal(run.outputs["c"], mmad(a, b, init=np.broadcast_to(bv, (m, n))))


MM_F32_HOST = MM_HOST.replace("DataType::DT_FLOAT16, false", "DataType::DT_FLOAT, false").replace(
    "DataType::DT_FLOAT16, p[3] != 0", "DataType::DT_FLOAT, p[3] != 0"
)


def test_matmul_api_fp32_b_not_transposed(kernel):
    # fp32 A and B, B not transposed, tails in M, N and K (K 40: baseK a multiple of 16, the squares
    # of LoadDataWithTranspose), 3 cube cores; products rounded to fp32, k0 = 8.
    m, n, k = 100, 72, 40
    rng = np.random.default_rng(21)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bv = rng.standard_normal(n).astype(np.float32)
    kernel_src = (
        MM_KERNEL.replace(
            "MatmulType<TPosition::GM, CubeFormat::ND, half>",
            "MatmulType<TPosition::GM, CubeFormat::ND, float>",
        )
        .replace("GlobalTensor<half> ga, gb;", "GlobalTensor<float> ga, gb;")
        .replace("(__gm__ half*)", "(__gm__ float*)")
    )
    run = kernel(
        "#define ASCENDC_CUBE_ONLY\n" + kernel_src,
        {"a": a, "b": b, "bias": bv},
        {"c": ("float32", (m, n))},
        params=[m, n, k, 0, 1, 3, 0, 0],
        block_dim=0,
        workspace=0,
        host=MM_F32_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"',
    ).ok()
    want = mmad(a, b, k0=8, init=np.broadcast_to(bv, (m, n)))
    np.testing.assert_array_equal(run.outputs["c"], want)


def test_matmul_api_asynchronous_iterate_through_the_workspace_cache(kernel):
    # Iterate<false> with a SetWorkspace cache (the user workspace, one slice per AIV): the first call
    # fills the cache, the later ones count its blocks, GetTensorC<false> takes them in order.
    m, n, k = 300, 208, 64
    # (The block comes into a VECIN queue tensor, whose free orders the next copy in after the vector
    # read; no message precedes the copy in this mode, so a VECOUT tensor would race.)
    body = MM_UB_KERNEL.replace(
        "for (int i = 0; mm.Iterate(); ++i) {",
        """GlobalTensor<float> cache;
cache.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace) + idx * 65536);
mm.SetWorkspace(cache);
TQue<QuePosition::VECIN, 1> qin;
pipe.InitBuffer(qin, 1, tl.baseM * tl.baseN * sizeof(float));
for (int i = 0; mm.template Iterate<false>(); ++i) {""",
    ).replace(
        """  mm.GetTensorC(ub, 0, true);
  Muls(ub, ub, 2.0f, tl.baseM * tl.baseN);""",
        """  LocalTensor<float> cin = qin.AllocTensor<float>();
  mm.template GetTensorC<false>(cin, 0, true);
  qin.EnQue(cin);
  cin = qin.DeQue<float>();
  Muls(ub, cin, 2.0f, tl.baseM * tl.baseN);
  qin.FreeTensor(cin);""",
    )
    assert "GetTensorC<false>" in body and "Iterate<false>" in body
    rng = np.random.default_rng(8)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bv = rng.standard_normal(n).astype(np.float32)
    run = kernel(
        body,
        {"a": a, "b": b, "bias": bv},
        {"c": ("float32", (m, n))},
        params=[m, n, k, 0, 1, 4, 0, 1],
        block_dim=2,
        workspace=4 * 65536 * 4,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude='#include "lib/matmul_intf.h"',
    ).ok()
    want = mmad(a, b, init=np.broadcast_to(bv, (m, n))) * np.float32(2)
    np.testing.assert_array_equal(run.outputs["c"], want)
