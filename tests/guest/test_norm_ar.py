"""The [A, R] normalisations, DeepNorm and LayerNormGradBeta on the guest engine
(ascendc_guest/adv_norm_ar.h, runtime/guest/api_adv_norm.cpp): a kernel of ours calling each gets
the native engine's verdict and vector time, its latency within a few per cent; and a length past a
tensor stops the kernel, not the host."""

from __future__ import annotations

from ascend_core.protocol import Status

from .test_adv import SIGMOID_COMPUTE, adv_sigmoid, same_charge

# The 4 KB work buffer by bytes: Welford's float mean and M (64 each), its input (64 of T), the
# finalized mean and variance (8 floats each); [4, 32] rows of T in and three outputs, float gamma
# and beta [32], the statistics (8 floats each), DeepNorm's mean and rstd and beta of T, and a
# sharedTmpBuffer.
LAYOUT = """    LocalTensor<uint8_t> nb = workBuf.Get<uint8_t>();
    LocalTensor<float> wm = nb.template ReinterpretCast<float>(), wv = nb[256].template ReinterpretCast<float>();
    LocalTensor<T> wx = nb[512].template ReinterpretCast<T>(), nx = nb[1024].template ReinterpretCast<T>();
    LocalTensor<T> ny = nb[1536].template ReinterpretCast<T>(), ny2 = nb[3072].template ReinterpretCast<T>();
    LocalTensor<float> wo = nb[768].template ReinterpretCast<float>(), ng = nb[2048].template ReinterpretCast<float>();
    LocalTensor<float> nbeta = nb[2176].template ReinterpretCast<float>(), ns = nb[2304].template ReinterpretCast<float>();
    LocalTensor<T> dm = nb[832].template ReinterpretCast<T>(), dr = nb[864].template ReinterpretCast<T>();
    LocalTensor<T> db = nb[896].template ReinterpretCast<T>();
    LocalTensor<T> dd = nb[2432].template ReinterpretCast<T>();
    LocalTensor<uint8_t> ntmp = nb[3584];
    const uint32_t mm = n < 128 ? n : 128;"""

# level1/sigmoid's kernel, then Welford over two chunks of 64 (3, then 5 with nRec 1/2): mean 4 and
# M 2 per element, finalized (rnLength 2, rRec 1/128) to mean 4 and variance 1. Rows of 2 normalised
# by a given mean 2 (Normalize) and by their own (LayerNorm, mean 2) are 0 with beta 0, as is DeepNorm
# of 1 * 2 + 2 (mean 4); LayerNormGradBeta of 4 rows of 2 (dy and resForGamma) is 16 and 8. Each
# value's error is added to the output, which holds only if every one is right.
NORM_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    Duplicate(wm, 0.0f, 128);
    Duplicate(wx, static_cast<T>(3.0f), 64);
    WelfordUpdateParam up{{1, 64, 64, 1.0f}};
    WelfordUpdate<T, float, false>(wm, wv, wm, wv, wx, ntmp, up);
    Duplicate(wx, static_cast<T>(5.0f), 64);
    up.nRec = 0.5f;
    WelfordUpdate<T, float, false>(wm, wv, wm, wv, wx, up);
    WelfordFinalizePara fp{{2, 64, 0, 64, 0, 0, 1.0f / 64, 1.0f / 128, 0.0f}};
    WelfordFinalize<false>(wo, wo[8], wm, wv, ntmp, fp);
    Duplicate(nx, static_cast<T>(2.0f), 128);
    Duplicate(ng, 1.5f, 32);
    Duplicate(nbeta, 0.0f, 32);
    Duplicate(ns, 2.0f, 8);
    NormalizePara np{{4, 32, 32}};
    Normalize<float, T, false>(ny, ns[8], ns, ns, nx, ng, nbeta, ntmp, 1e-5f, np);
    LayerNormPara lp{{4, 32, 32}};
    LayerNormSeparateTiling lt{{}};
    LayerNorm<float, T, false>(ny2, ns[16], ns[24], nx, ng, nbeta, 1e-5f, ntmp, lp, lt);
    Duplicate(db, static_cast<T>(0.0f), 32);
    DeepNormTiling dt{{}};
    dt.bLength = 1;
    dt.sLength = 4;
    dt.hLength = 32;
    dt.originalHLength = 32;
    dt.lastDimValueBack = 1.0f / 32;
    DeepNorm<T, false, false>(dd, dm, dr, nx, nx, db, wx, ntmp, static_cast<T>(1.0f), static_cast<T>(1e-5f), dt);
    Add(y, y, ny, mm);
    Add(y, y, ny2, mm);
    Add(y, y, dd, mm);
    LayerNormGradBetaTiling bt{{}};
    bt.bLength = 1;
    bt.sLength = 4;
    bt.hLength = 32;
    bt.originalHLength = 32;
    LayerNormGradBeta<T, false>(ny, ny[32], nx, nx, ntmp, bt);
    PipeBarrier<PIPE_ALL>();
    const float err = (wo.GetValue(0) - 4.0f) + (wo.GetValue(8) - 1.0f) + (ns.GetValue(16) - 2.0f) +
                      (static_cast<float>(dm.GetValue(0)) - 4.0f) + (static_cast<float>(ny.GetValue(0)) - 16.0f) +
                      (static_cast<float>(ny.GetValue(32)) - 8.0f);
    Adds(y, y, static_cast<T>(err), mm);"""


def test_welford_normalize_and_layer_norm_match_the_native_engine_with_their_values(engines):
    same_charge(engines, adv_sigmoid(NORM_COMPUTE), 0.05)


FORGED_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    WelfordUpdateParam up{{1, 2048, 2048, 1.0f}};
    WelfordUpdate<T, float, false>(wm, wv, wm, wv, wx, up);"""


def test_a_welford_length_past_its_tensor_stops_the_kernel(engines):
    native, guest = engines.both(adv_sigmoid(FORGED_COMPUTE))
    assert native.status is Status.RUNTIME_ERROR, native.message
    assert guest.status is Status.RUNTIME_ERROR, guest.message
    for message in (native.message, guest.message):
        assert "WelfordUpdate: the inputX needs 2048 elements" in message
