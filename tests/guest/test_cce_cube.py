"""The cube's CCE intrinsics on both engines (ascendc_guest/cce_cube.h, runtime/guest/api_cce_cube.cpp):
packages/cce_matmul, a tile written in copy_gm_to_cbuf_multi_nd2nz_b16, load_cbuf_to_ca / _cb, mad
and set_nd_para + copy_matrix_cc_to_gm, passes bit-exactly on both at one latency; the same tile
through the basic API costs MTE1 and the cube the same; addresses past a buffer stop the guest."""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import Status

CCE_MATMUL = Path(__file__).parent / "packages" / "cce_matmul"

# The four cube steps through the basic API, for the intrinsics between the first nd2nz and the
# copy out (the flags stay as they are).
RAW_TO_API = {
    "  copy_gm_to_cbuf_multi_nd2nz_b16(a1, (__gm__ half*)a, 0, 1, M, K, 0, K, M, 1, 0);\n": """\
  LocalTensor<half> l1a(TPosition::A1, 0, M * K), l1b(TPosition::B1, M * K * sizeof(half), K * N);
  LocalTensor<half> l0a(TPosition::A2, 0, M * K), l0b(TPosition::B2, 0, K * N);
  LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half*)a);
  gb.SetGlobalBuffer((__gm__ half*)b);
  gc.SetGlobalBuffer((__gm__ float*)c);
  DataCopy(l1a, ga, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
""",
    "  copy_gm_to_cbuf_multi_nd2nz_b16(b1, (__gm__ half*)b, 0, 1, K, N, 0, N, K, 1, 0);\n": (
        "  DataCopy(l1b, gb, Nd2NzParams(1, K, N, 0, N, K, 1, 0));\n"
    ),
    "load_cbuf_to_ca(a2 + i * K1 * 256, a1 + i * 256, 0, K1, M1, 0, 0, false, inc);": (
        "LoadData(l0a[i * K1 * 256], l1a[i * 256], LoadData2DParams(0, K1, M1, 0, 0, false, 0));"
    ),
    "load_cbuf_to_cb(b2 + k * N1 * 256, b1 + k * 256, 0, N1, K1, 0, 0, true, inc);": (
        "LoadData(l0b[k * N1 * 256], l1b[k * 256], LoadData2DParams(0, N1, K1, 0, 0, true, 0));"
    ),
    "  mad(c0, a2, b2, M, K, N, 0, false, false, true);\n": (
        "  MmadParams mp;\n  mp.m = M; mp.n = N; mp.k = K;\n  Mmad(l0c, l0a, l0b, mp);\n"
    ),
    "  copy_matrix_cc_to_gm((__gm__ float*)c, c0, 0, N, M, N, M, 0, NoQuant, 0, false, true);\n": (
        "  Fixpipe(gc, l0c, FixpipeParamsV220(N, M, M, N, false));\n"
    ),
}


def kernel_with(pkg: OperatorPackage, pairs: dict[str, str]) -> OperatorPackage:
    """The package with each `old` of its kernel file, found once, replaced by `new`."""
    text = pkg.kernel_source
    for old, new in pairs.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return pkg.with_sources(kernel=text)


def test_the_raw_matmul_passes_on_both_engines_at_one_latency(engines):
    guest = engines.same(load_package(CCE_MATMUL))
    assert {c.name for c in guest.cases} == {"tile_32x48x64", "tile_128x128x128"}
    assert all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)


def test_the_api_tile_costs_mte1_and_the_cube_the_same(engines):
    # MTE2 and FIXPIPE time GM through the L2 model, whose state depends on when each access
    # arrives, and the two kernels' scalar code differs (tests/sim/test_cce_cube.py swaps one step
    # at a time, where all four pipes are equal).
    raw = engines.guest_only(load_package(CCE_MATMUL))
    api = engines.guest_only(kernel_with(load_package(CCE_MATMUL), RAW_TO_API))
    assert raw.status is Status.OK and api.status is Status.OK, (raw.message, api.message)
    for pipe in ("aic_mte1_time_us", "aic_mac_time_us"):
        assert raw.profile.model_extra[pipe] == api.profile.model_extra[pipe] > 0


def test_addresses_past_their_buffer_stop_the_guest(engines):
    pkg = load_package(CCE_MATMUL)
    past_l1 = {
        "(__cbuf__ half*)(uintptr_t)(M * K * sizeof(half))": "(__cbuf__ half*)(uintptr_t)(1024 * 1024)"
    }
    past_l0c = {
        "__cc__ float* c0 = (__cc__ float*)(uintptr_t)0;": (
            "__cc__ float* c0 = (__cc__ float*)(uintptr_t)(128 * 1024 - 1024);"
        )
    }
    for pairs, api, what in (
        (past_l1, "copy_gm_to_cbuf_multi_nd2nz_b16", "L1"),
        (past_l0c, "Mmad", "dst (C) footprint"),
    ):
        result = engines.guest_only(kernel_with(pkg, pairs))
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert api in result.message and what in result.message, result.message
