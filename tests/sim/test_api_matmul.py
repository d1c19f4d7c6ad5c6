"""The Matmul API under its `matmul` namespace (issue 33 item 6): `using namespace matmul;` and
`matmul::` names, as public Matmul-API kernels write them, on a kernel of ours; bit-exact against
ascend_core/suite/cube_ref.py."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage
from ascend_core.suite.cube_ref import mmad
from npu_daemon.backends.common import kernel_view
from npu_daemon.backends.sim import SimBackend
from tests.sim.test_cube_mix import MM_HOST, MM_TILING_H

PRELUDE = """#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace matmul;
using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
"""

# One core computes the whole C = A B (+ bias) with IterateAll.
KERNEL = """
GET_TILING_DATA(t, tiling);
TPipe pipe;
matmul::Matmul<AType, AType, CType, CType, CFG_NORM> mm;
REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.mm);
if (GetBlockIdx() != 0) return;
GlobalTensor<half> ga, gb; GlobalTensor<float> gc, gbias;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b);
gc.SetGlobalBuffer((__gm__ float*)c); gbias.SetGlobalBuffer((__gm__ float*)bias);
mm.SetTensorA(ga);
mm.SetTensorB(gb);
mm.SetBias(gbias);
mm.IterateAll(gc);
mm.End();
"""


def _matmul_run(kernel, prelude: str, body: str):
    m, n, k = 64, 48, 96
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    run = kernel(
        body,
        {"a": a, "b": b, "bias": bias},
        {"c": ("float32", (m, n))},
        params=[m, n, k, 0, 1, 1, 0, 0],
        block_dim=1,
        workspace=0,
        host=MM_HOST,
        tiling_h=MM_TILING_H,
        prelude=prelude,
    ).ok()
    want = mmad(a, b, init=np.broadcast_to(bias, (m, n)))
    np.testing.assert_array_equal(run.outputs["c"], want.astype(np.float32))


def test_using_namespace_matmul(kernel):
    _matmul_run(kernel, PRELUDE, KERNEL)


def test_documented_config_constructors(kernel):
    # GetMDLConfig / GetNormalConfig with the arguments public kernels pass; the MDL config loads
    # several K blocks per copy, the result is the same matmul.
    configs = """constexpr static MatmulConfig MDL = GetMDLConfig(false, false, 0, false, false, false, true);
constexpr static MatmulConfig NORM = GetNormalConfig(true);
static_assert(MDL.doMultiDataLoad && !MDL.doNorm && MDL.enUnitFlag && NORM.doNorm && NORM.intrinsicsCheck);
static_assert(GetMDLConfig().doMTE2Preload == 0 && GetMDLConfig(false, false, 2).doMTE2Preload == 2);
"""
    for cfg in ("MDL", "NORM"):
        _matmul_run(kernel, PRELUDE + configs, KERNEL.replace("CFG_NORM", cfg))


def test_a_kernel_entry_named_matmul_still_compiles():
    # The alias and an entry named `matmul` cannot coexist: the entry is compiled under another
    # name (exported as `matmul`) and the header leaves the alias out.
    assert kernel_view.entry_renames("matmul") == (
        ["#define matmul ascendc_sim_entry_matmul"],
        ["-Wl,--defsym,matmul=ascendc_sim_entry_matmul"],
    )
    pkg = load_package(Path(__file__).parents[2] / "ascend_core/suite/level1/matmul")
    assert pkg.spec.kernel == "matmul"
    backend = SimBackend()
    backend.prepare()
    with tempfile.TemporaryDirectory() as tmp:
        result = backend.evaluate(EvalRequest(package=pkg, stages=[Stage.COMPILE]), Path(tmp))
    assert result.status == "OK", result.message
