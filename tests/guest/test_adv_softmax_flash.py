"""The Softmax flash family on the guest engine (ascendc_guest/adv_softmax_flash.h,
runtime/guest/api_adv_softmax_flash.cpp): a kernel of ours calling SoftmaxFlashV2 (update, and the
outReduceMax form without broadcast) and SoftmaxFlash gets the native engine's verdict and vector
time, its latency within a few per cent; and a forged tensor stops the kernel, not the host."""

from __future__ import annotations

from ascend_core.protocol import Status

from .test_adv import SIGMOID_COMPUTE, adv_sigmoid, same_charge

# level1/sigmoid's kernel, then the flash softmaxes on 4 rows of 32 zeros with inMax 0 and inExpSum 2:
# V2 with update gives dst 1, expSum 2 + 32, max 0 and expMax 1 (broadcast or one a row, and the
# first reduce's max 0); V1 without update, its rows from the kernel-side
# tiling, gives dst 1/32, sum 32, max 0. Each less its value is 0,
# added to the output, which holds only if every value is right.
FLASH_COMPUTE = f"""{SIGMOID_COMPUTE}
    LocalTensor<T> w = workBuf.Get<T>();
    const uint32_t b = 4 * 32 / sizeof(T), m = n < 128 ? n : 128, mb = n < b ? n : b, m4 = n < 4 ? n : 4;
    Duplicate(w, static_cast<T>(0.0f), 128);
    Duplicate(w[128], static_cast<T>(0.0f), b);
    Duplicate(w[192], static_cast<T>(2.0f), b);
    SoftMaxTiling st{{}};
    const SoftMaxShapeInfo shape{{4, 32, 4, 32}};
    SoftmaxFlashV2<T, true>(w[256], w[384], w[448], w, w[512], w[192], w[128],
                            w[768].template ReinterpretCast<uint8_t>(), st, shape);
    Adds(w[256], w[256], static_cast<T>(-1.0f), 128);
    Adds(w[384], w[384], static_cast<T>(-34.0f), b);
    Adds(w[512], w[512], static_cast<T>(-1.0f), b);
    Add(y, y, w[256], m);
    Add(y, y, w[384], mb);
    Add(y, y, w[448], mb);
    Add(y, y, w[512], mb);
    static constexpr SoftmaxConfig cfg{{false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC}};
    SoftmaxFlashV2<T, true, false, false, false, cfg>(w[256], w[640], w[384], w[448], w, w[512], w[192], w[128],
                                                      st, shape);
    Adds(w[256], w[256], static_cast<T>(-1.0f), 128);
    Adds(w[384], w[384], static_cast<T>(-34.0f), 4);
    Adds(w[512], w[512], static_cast<T>(-1.0f), 4);
    Add(y, y, w[256], m);
    Add(y, y, w[384], m4);
    Add(y, y, w[448], m4);
    Add(y, y, w[512], m4);
    Add(y, y, w[640], m4);
    SoftmaxFlash<T>(w[256], w[384], w[448], w, w[512], w[192], w[128],
                    SoftMaxFlashV2TilingFuncImpl(4, 32, sizeof(T), sizeof(T), 512));
    Muls(w[256], w[256], static_cast<T>(32.0f), 128);
    Adds(w[256], w[256], static_cast<T>(-1.0f), 128);
    Adds(w[384], w[384], static_cast<T>(-32.0f), b);
    Add(y, y, w[256], m);
    Add(y, y, w[384], mb);
    Add(y, y, w[448], mb);"""


def test_softmax_flash_matches_the_native_engine_with_its_values(engines):
    same_charge(engines, adv_sigmoid(FLASH_COMPUTE), 0.05)


# The source named as 4 rows of 32 from the work buffer's last 32 B block: the host refuses it.
FORGED_COMPUTE = f"""{SIGMOID_COMPUTE}
    LocalTensor<T> w = workBuf.Get<T>();
    SoftMaxTiling st{{}};
    SoftmaxFlashV2<T>(w[256], w[384], w[448], w[(4096 - 32) / sizeof(T)], w[512], w[192], w[128], st, SoftMaxShapeInfo{{4, 32, 4, 32}});"""


def test_a_flash_softmax_past_its_tensor_stops_the_kernel(engines):
    native, guest = engines.both(adv_sigmoid(FORGED_COMPUTE))
    assert native.status is Status.RUNTIME_ERROR, native.message
    assert guest.status is Status.RUNTIME_ERROR, guest.message
    assert "SoftmaxFlashV2: the source needs 128 elements" in native.message
    assert "SoftmaxFlashV2: the source needs 128 elements" in guest.message
