"""The rest of the cube's CCE layer on both engines (ascendc_guest/cce_cube.h,
runtime/guest/api_cce_cube.cpp): packages/cce_conv, a convolution with bias written in
copy_gm_to_cbuf (plain and PAD_MODE8), copy_cbuf_to_bt, set_fmatrix / set_padding / set_l3d_rpt
with img2colv2_cbuf_to_ca, and copy_matrix_cc_to_cbuf, passes on both at one latency; its img2col
through the API's LoadData costs MTE1 the same; addresses past their buffer stop the guest."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import Status

from .test_cce_cube import kernel_with

CCE_CONV = Path(__file__).parent / "packages" / "cce_conv"

IMG2COL = "  img2colv2_cbuf_to_ca(a2, x1, 144, 48, 0, 0, 1, 1, 3, 3, 1, 1, false, false, false, false, 16);\n"
# The same load through the API, from the registers the kernel set.
IMG2COL_API = """\
  static constexpr IsResetLoad3dConfig kFromRegisters = {false, false};
  LoadData3DParamsV2<half> p;
  p.channelSize = 16, p.kExtension = 144, p.mExtension = 48, p.filterW = 3, p.filterH = 3;
  LoadData<half, kFromRegisters>(LocalTensor<half>(TPosition::A2, 0, 48 * 144), LocalTensor<half>(TPosition::A1, 0, 576), p);
"""


def test_the_raw_convolution_passes_on_both_engines_at_one_latency(engines):
    result = engines.same(load_package(CCE_CONV))
    assert [c.passed for c in result.cases] == [True]


def test_img2col_costs_mte1_what_the_api_load_costs(engines):
    raw = engines.guest_only(load_package(CCE_CONV))
    api = engines.guest_only(kernel_with(load_package(CCE_CONV), {IMG2COL: IMG2COL_API}))
    assert raw.status is Status.OK and api.status is Status.OK, (raw.message, api.message)
    for pipe in ("aic_mte1_time_us", "aic_mac_time_us"):
        assert raw.profile.model_extra[pipe] == api.profile.model_extra[pipe] > 0


def test_addresses_past_their_buffer_stop_the_guest(engines):
    pkg = load_package(CCE_CONV)
    cases = (
        (
            {"copy_cbuf_to_bt(0, bias1,": "copy_cbuf_to_bt(1024, bias1,"},
            "copy_cbuf_to_bt: address 0x400 is not in",
        ),
        (
            {
                "__ca__ half* a2 = (__ca__ half*)(uintptr_t)0;": "__ca__ half* a2 = (__ca__ half*)(uintptr_t)(64 * 1024 - 512);"
            },
            "LoadData(3Dv2): dst footprint",
        ),
        (
            {"(__cbuf__ half*)(uintptr_t)12288;": "(__cbuf__ half*)(uintptr_t)(512 * 1024 - 512);"},
            "Fixpipe: dst footprint",
        ),
        (
            {
                "copy_gm_to_cbuf(x1,": "copy_gm_to_cbuf((__cbuf__ half*)(uintptr_t)(512 * 1024 - 32),"
            },
            "copy_gm_to_cbuf: dst footprint",
        ),
    )
    for pairs, what in cases:
        result = engines.guest_only(kernel_with(pkg, pairs))
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert what in result.message, result.message
