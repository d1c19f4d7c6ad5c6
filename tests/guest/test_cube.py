"""The cube family on the guest engine (Nd2Nz, LoadData, Mmad, Fixpipe, the Matmul high-level API
and mixed AIC/AIV launches): the suite's cube kernels get the native engine's verdict and simulated
latency, and forged handles, tensors and tilings stop the kernel as RUNTIME_ERROR."""

from __future__ import annotations

import pytest

from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import op_uris, resolve
from ascend_gym.client import DaemonClient

from .conftest import lean

CUBE_KERNELS = [
    "level1/matmul",
    "level1/matmul_trans_a",
    "level1/matmul_split_k",
    "level1/matmul_int8",
    "level1/linear",
    "level1/gemv",
    "level2/batch_matmul",
    "level2/batch_matmul_trans_b",
    "level2/grouped_matmul",
    "level2/conv2d",
    "level3/attention",
]


# ascend-real-v1's Matmul kernels (GM A, B, C, the constant tiling), where that suite is materialised.
REAL_CUBE_KERNELS = ["level3/matmad", "level3/matmul_custom", "level3/matmul_api_constant"]


@pytest.mark.parametrize("uri", lean(CUBE_KERNELS))
def test_suite_cube_kernels_match_the_native_engine(engines, uri):
    engines.same(uri)


@pytest.mark.parametrize("uri", REAL_CUBE_KERNELS)
def test_real_matmul_kernels_match_the_native_engine(engines, uri):
    try:
        op_uris("ascend-real-v1", [3])
    except KeyError as e:  # not materialised on this machine
        pytest.skip(str(e))
    engines.same(f"op://ascend-real-v1/{uri}")


# level1/matmul as a mixed kernel with C in the UB: each AIV drives its block's Matmul on the group's
# AIC (REGIST_MATMUL_OBJ's service), takes each base block with Iterate / GetTensorC(LocalTensor)
# and writes its rows to GM with DataCopyPad.
MIXED_UB = {
    "#define ASCENDC_CUBE_ONLY\n": "",
    "KERNEL_TYPE_AIC_ONLY": "KERNEL_TYPE_MIX_AIC_1_2",
    "using CType = MatmulType<TPosition::GM,": "using CType = MatmulType<TPosition::VECIN,",
    "  const int32_t idx = GetBlockIdx();\n": (
        "  const int32_t idx = GetBlockIdx();\n  if (idx >= tl.usedCoreNum) return;\n"
    ),
    "  mm.IterateAll(gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);\n": """\
  const int32_t sm = tailM < tl.singleCoreM ? tailM : tl.singleCoreM;
  const int32_t sn = tailN < tl.singleCoreN ? tailN : tl.singleCoreN;
  GlobalTensor<half> out = gc[mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN];
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, tl.baseM * tl.baseN * sizeof(half));
  const int32_t mb = (sm + tl.baseM - 1) / tl.baseM, nb = (sn + tl.baseN - 1) / tl.baseN;
  for (int32_t i = 0; mm.Iterate(); ++i) {
    LocalTensor<half> ub = q.AllocTensor<half>();
    mm.GetTensorC(ub);
    q.EnQue(ub);
    ub = q.DeQue<half>();
    const int32_t bm = tl.iterateOrder == 1 ? i / nb : i % mb, bn = tl.iterateOrder == 1 ? i % nb : i / mb;
    const int32_t rows = sm - bm * tl.baseM < tl.baseM ? sm - bm * tl.baseM : tl.baseM;
    const int32_t cols = sn - bn * tl.baseN < tl.baseN ? sn - bn * tl.baseN : tl.baseN;
    const uint32_t rowBytes = (cols * sizeof(half) + 31) / 32 * 32;
    DataCopyPad(out[bm * tl.baseM * tl.N + bn * tl.baseN], ub,
                DataCopyExtParams(rows, cols * sizeof(half), (tl.baseN * sizeof(half) - rowBytes) / 32,
                                  (tl.N - cols) * sizeof(half), 0));
    q.FreeTensor(ub);
  }
""",
}


def test_a_mixed_kernel_with_c_in_the_ub_matches_the_native_engine(engines):
    pkg = resolve("level1/matmul")
    kernel = pkg.files[pkg.kernel_path]
    for old, new in MIXED_UB.items():
        assert old in kernel
        kernel = kernel.replace(old, new, 1)
    engines.same(pkg.with_sources(kernel=kernel))


REGIST = "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);\n"
FORGERIES = {
    # A handle the host never made: the import names no object of the core.
    "forged Matmul handle": (
        "  ascendc_guest::matmul_iterate_all(1000, 0, 0, 0, __LINE__);\n",
        "names no object",
    ),
    # An L0A handle of 16 Mi elements made by hand (TBuf::Get would refuse the length): past L0A,
    # whatever it points at.
    "L0A tensor past its buffer": (
        "  TBuf<TPosition::A1> l1;\n"
        "  pipe.InitBuffer(l1, 512);\n"
        "  LocalTensor<half> l0a(0, 1u << 24, TPosition::A2);\n"
        "  LoadData(l0a, l1.Get<half>(), LoadData2DParams(0, 1, 0, 0, 0, false, 0));\n",
        "past",
    ),
    # A tiling whose base block is far larger than L0A: the host's Matmul refuses its buffers.
    "absurd tiling": (
        "  TCubeTiling bad = tl;\n  bad.baseM = 1 << 20;\n  mm.Init(&bad);\n",
        "",
    ),
}


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_cube_argument_stops_the_kernel(guest_daemon, name):
    body, words = FORGERIES[name]
    pkg = resolve("level1/matmul")
    kernel = pkg.files[pkg.kernel_path]
    assert REGIST in kernel
    forged = pkg.with_sources(kernel=kernel.replace(REGIST, REGIST + body, 1))
    client = DaemonClient(guest_daemon)
    try:
        result = client.evaluate(
            EvalRequest(
                run_id="cube-forged",
                package=forged,
                stages=[Stage.COMPILE, Stage.CHECK],
                timeouts=Timeouts(build_s=300, run_s=120),
            )
        )
    finally:
        client.close()
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert words in result.message


def test_set_sub_block_idx_leaves_a_matmul_as_it_was(engines):
    # A cube-only kernel names its AIV 0 (asc-devkit's SetSubBlockIdx page); the emulated Matmul
    # computes on the group's AIC whichever AIV it serves, so the verdict and time are level1/matmul's.
    pkg = resolve("level1/matmul")
    path = pkg.kernel_path
    line = "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);\n"
    assert line in pkg.files[path]
    text = pkg.files[path].replace(line, line + "  mm.SetSubBlockIdx(0);\n")
    base, _ = engines.both(pkg)
    native, guest = engines.both(pkg.with_sources(kernel=text))
    for r in (base, native, guest):
        assert r.status is Status.OK, r.message
    assert native.latency_us == pytest.approx(base.latency_us, rel=1e-3)
    assert guest.latency_us == pytest.approx(native.latency_us, rel=0.02)
