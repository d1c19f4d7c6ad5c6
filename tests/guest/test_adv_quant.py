"""AscendQuant and AscendAntiQuant on the guest engine (ascendc_guest/adv_quant.h,
runtime/guest/api_adv_quant.cpp): a kernel of ours quantising and dequantising (PER_TENSOR and
PER_CHANNEL) gets the native engine's verdict and vector time, its latency within a few per cent;
and a count past a tensor stops the kernel, not the host."""

from __future__ import annotations

from ascend_core.protocol import Status

from .test_adv import SIGMOID_COMPUTE, adv_sigmoid, same_charge

# The work buffer by bytes: source qx (128 of T), per-channel scale (32 of T), int8 qq, half qh, the
# half offset and scale tensors, a fold buffer qr of T, a sharedTmpBuffer.
LAYOUT = """    LocalTensor<uint8_t> qb = workBuf.Get<uint8_t>();
    LocalTensor<T> qx = qb.template ReinterpretCast<T>(), qsc = qb[512].template ReinterpretCast<T>();
    LocalTensor<T> qr = qb[1152].template ReinterpretCast<T>();
    LocalTensor<int8_t> qq = qb[640].template ReinterpretCast<int8_t>();
    LocalTensor<half> qh = qb[768].template ReinterpretCast<half>(), qho = qb[1024].template ReinterpretCast<half>();
    LocalTensor<half> qhs = qb[1088].template ReinterpretCast<half>();
    LocalTensor<uint8_t> qtmp = qb[2048];
    qq.SetSize(128);
    qh.SetSize(128);
    qho.SetSize(32);
    qhs.SetSize(32);
    const uint32_t qm = n < 128 ? n : 128;"""

# level1/sigmoid's kernel, then 3 quantised with scale 1.5 and offset 0.5 (PER_TENSOR), and with
# scale tensor 2 and offset -1 (PER_CHANNEL), is 5; dequantised as (q - 5) * 1 with scalars, then
# with [1, 32] offset and scale tensors, it is 0, added to the output, which holds only if each is.
QUANT_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    auto fold = [&]() {{
      if constexpr (std::is_same_v<T, half>) {{
        Add(y, y, qh, qm);
      }} else {{
        Cast(qr, qh, RoundMode::CAST_NONE, 128);
        Add(y, y, qr, qm);
      }}
    }};
    Duplicate(qx, static_cast<T>(3.0f), 128);
    Duplicate(qsc, static_cast<T>(2.0f), 32);
    Duplicate(qho, static_cast<half>(-5.0f), 32);
    Duplicate(qhs, static_cast<half>(1.0f), 32);
    AscendQuant<T>(qq, qx, qtmp, 1.5f, 0.5f, 128);
    AscendAntiQuant<int8_t, half, false>(qh, qq, static_cast<half>(-5.0f), static_cast<half>(1.0f), 4);
    fold();
    AscendQuant<T>(qq, qx, qsc, static_cast<T>(-1.0f), 32, 128);
    AscendAntiQuant<int8_t, half, false>(qh, qq, qho, qhs, qtmp, 4);
    fold();"""


def test_quant_and_anti_quant_match_the_native_engine_with_their_values(engines):
    same_charge(engines, adv_sigmoid(QUANT_COMPUTE), 0.05)


FORGED_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    AscendQuant<T>(qq, qx, 1.5f, 0.5f, 256);"""


def test_a_quant_count_past_its_tensor_stops_the_kernel(engines):
    native, guest = engines.both(adv_sigmoid(FORGED_COMPUTE))
    assert native.status is Status.RUNTIME_ERROR, native.message
    assert guest.status is Status.RUNTIME_ERROR, guest.message
    for message in (native.message, guest.message):
        assert "AscendQuant: the destination needs 256 elements, the tensor has 128" in message
