"""AscendDequant on the guest engine (ascendc_guest/adv_quant.h, runtime/guest/api_adv_quant.cpp):
a kernel of ours dequantising int32_t with a scale tensor, a scalar and a count gets the native
engine's verdict and vector time, its latency within a few per cent; a shape past a tensor stops
the kernel, not the host."""

from __future__ import annotations

from ascend_core.protocol import Status

from .test_adv import SIGMOID_COMPUTE, adv_sigmoid, same_charge

# The work buffer by bytes: int32_t source di (128), float scale dsc (32), float results da, db, dc
# (128 each), a fold buffer dr of T, a sharedTmpBuffer.
LAYOUT = """    LocalTensor<uint8_t> qb = workBuf.Get<uint8_t>();
    LocalTensor<int32_t> di = qb.template ReinterpretCast<int32_t>();
    LocalTensor<float> dsc = qb[512].template ReinterpretCast<float>(), da = qb[640].template ReinterpretCast<float>();
    LocalTensor<float> db = qb[1152].template ReinterpretCast<float>(), dc = qb[1664].template ReinterpretCast<float>();
    LocalTensor<T> dr = qb[2176].template ReinterpretCast<T>();
    LocalTensor<uint8_t> dtmp = qb[2816];
    di.SetSize(128);
    dsc.SetSize(32);
    da.SetSize(128);
    db.SetSize(128);
    dc.SetSize(128);
    const uint32_t qm = n < 128 ? n : 128;"""

# level1/sigmoid's kernel, then 6 dequantised by a scale tensor of 0.5 (DequantParams), by a count
# over the same tensor, and by the scalar -0.5: 3 + -3 and 3 + -3 are 0, added to the output, which
# holds only if each is.
DEQUANT_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    auto fold = [&](const LocalTensor<float>& r) {{
      if constexpr (std::is_same_v<T, float>) {{
        Add(y, y, r, qm);
      }} else {{
        Cast(dr, r, RoundMode::CAST_NONE, 128);
        Add(y, y, dr, qm);
      }}
    }};
    Duplicate(di, 6, 128);
    Duplicate(dsc, 0.5f, 32);
    AscendDequant(da, di, dsc, dtmp, {{4, 32, 32}});
    AscendDequant(db, di, -0.5f, dtmp, {{4, 32, 32}});
    AscendDequant(dc, di, dsc, 128u);
    Add(da, da, db, 128);
    Add(dc, dc, db, 128);
    fold(da);
    fold(dc);"""


def test_dequant_matches_the_native_engine_with_its_values(engines):
    same_charge(engines, adv_sigmoid(DEQUANT_COMPUTE), 0.05)


FORGED_COMPUTE = f"""{SIGMOID_COMPUTE}
{LAYOUT}
    AscendDequant(da, di, dsc, {{8, 32, 32}});"""


def test_a_dequant_shape_past_its_tensor_stops_the_kernel(engines):
    native, guest = engines.both(adv_sigmoid(FORGED_COMPUTE))
    assert native.status is Status.RUNTIME_ERROR, native.message
    assert guest.status is Status.RUNTIME_ERROR, guest.message
    for message in (native.message, guest.message):
        assert "AscendDequant: the source needs 256 elements, the tensor has 128" in message
