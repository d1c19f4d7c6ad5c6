"""BatchNorm, GroupNorm and LayerNormGrad on the guest engine (ascendc_guest/adv_norm_ar.h,
runtime/guest/api_adv_norm.cpp): a kernel calling each gets the native engine's verdict, values
and vector time; a sharedTmpBuffer under the documented minimum stops the kernel on both."""

from __future__ import annotations

from ascend_core.protocol import Status

from .test_adv import SIGMOID_COMPUTE, adv_sigmoid, same_charge

# The 4 KB work buffer by bytes (room for float): x [4, 32] (rows 2, 2, 4, 4), BatchNorm's output,
# mean and variance [32], gamma (ones) and beta (zeros) at 16 apart; GroupNorm's output [1, 4, 16]
# and mean and variance [2]; LayerNormGrad's pdX and resForGamma [2, 32]; a 1536 B sharedTmpBuffer.
LAYOUT = """    LocalTensor<uint8_t> nb = workBuf.Get<uint8_t>();
    LocalTensor<T> bx = nb.template ReinterpretCast<T>(), bo = nb[512].template ReinterpretCast<T>();
    LocalTensor<T> bmv = nb[1024].template ReinterpretCast<T>(), bgb = nb[1280].template ReinterpretCast<T>();
    LocalTensor<T> go = nb[1408].template ReinterpretCast<T>(), gmv = nb[1664].template ReinterpretCast<T>();
    LocalTensor<T> lo = nb[1792].template ReinterpretCast<T>();
    const uint32_t mm = n < 128 ? n : 128;
    Duplicate(bx, static_cast<T>(2.0f), 64);
    Duplicate(bx[64], static_cast<T>(4.0f), 64);
    Duplicate(bgb, static_cast<T>(1.0f), 16);
    Duplicate(bgb[16], static_cast<T>(0.0f), 16);"""

# GroupNorm's [1, 4, 16] in 2 groups of 2 channels.
GROUP_TILING = """    GroupNormTiling gt{};
    gt.n = 1;
    gt.c = 4;
    gt.hw = 16;
    gt.g = 2;
    gt.d = 2;
    gt.hwAlignSize = 16;
    gt.factor = 1.0f / 32;
"""

# BatchNorm over the 4 rows: mean 3 and variance 1 per column, row 0 -1. GroupNorm of [1, 4, 16]
# from x's element 48 in 2 groups: group 0 (16 of 2, 16 of 4) mean 3, variance 1, its first -1.
# LayerNormGrad of rows 2 and 4 (x and dy alike) with mean 3, variance 1 and gamma 1: pdX 0 and
# resForGamma -1 for the first row. Each value's error is added to the output.
NORM_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    LocalTensor<uint8_t> tmp = nb[2560];
    BatchNormTiling bt{{}};
    bt.originalBLength = 4;
    bt.meanVarSize = 32;
    bt.firstDimValueBack = 0.25f;
    BatchNorm<T, false, false>(bo, bmv, bmv[32], bx, bgb, bgb[16], tmp, static_cast<T>(1e-5f), bt);
{GROUP_TILING}    GroupNorm<T, false>(go, gmv, gmv[16], bx[48], bgb, bgb[16], tmp, static_cast<T>(1e-5f), gt);
    LayerNormGradTiling lt{{}};
    lt.bLength = 1;
    lt.sLength = 2;
    lt.hLength = 32;
    lt.originalHLength = 32;
    const float rec = 1.0f / 32, rec2 = 2.0f / 32;
    memcpy(&lt.lastDimValueBack, &rec, 4);
    memcpy(&lt.lastDimValueBackMulTwo, &rec2, 4);
    LayerNormGrad<T, false>(lo, lo[64], bx[32], bx[32], bmv[32], bmv, bmv[32], tmp, static_cast<T>(1e-5f), lt);
    PipeBarrier<PIPE_ALL>();
    const float err = (static_cast<float>(bmv.GetValue(0)) - 3.0f) + (static_cast<float>(bmv.GetValue(32)) - 1.0f) +
                      (static_cast<float>(bo.GetValue(0)) + 1.0f) + (static_cast<float>(gmv.GetValue(0)) - 3.0f) +
                      (static_cast<float>(gmv.GetValue(16)) - 1.0f) + (static_cast<float>(go.GetValue(0)) + 1.0f) +
                      static_cast<float>(lo.GetValue(0)) + (static_cast<float>(lo.GetValue(64)) + 1.0f);
    Adds(y, y, static_cast<T>(err), mm);"""


def with_cstring(pkg):
    text = pkg.files["op_kernel/sigmoid.cpp"]
    return pkg.with_sources(kernel="#include <cstring>\n" + text)


def test_batch_group_norm_and_layer_norm_grad_match_the_native_engine_with_their_values(engines):
    same_charge(engines, with_cstring(adv_sigmoid(NORM_COMPUTE)), 0.05)


# GroupNorm [1, 4, 16] in 2 groups needs 3 x 2 x 64 + 64 = 448 B (GetGroupNormMaxMinTmpSize).
SHORT_TMP_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
{GROUP_TILING}    LocalTensor<uint8_t> tmp = nb[3840];
    GroupNorm<T, false>(go, gmv, gmv[16], bx[48], bgb, bgb[16], tmp, static_cast<T>(1e-5f), gt);"""


def test_a_tmp_buffer_under_the_documented_minimum_stops_the_kernel_on_both_engines(engines):
    native, guest = engines.both(adv_sigmoid(SHORT_TMP_COMPUTE))
    for r in (native, guest):
        assert r.status is Status.RUNTIME_ERROR, r.message
        assert (
            "GroupNorm: the sharedTmpBuffer holds 256 bytes, under the minimum of 448 bytes"
            in r.message
        )
        assert "GetGroupNormMaxMinTmpSize" in r.message
