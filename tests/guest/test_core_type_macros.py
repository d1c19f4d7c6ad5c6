"""A kernel built per core type (issue 52): the device compiles a mixed kernel once for its AIC with
`__DAV_C220_CUBE__` and once for its AIV with `__DAV_C220_VEC__`, an AIV-only kernel with the vector
macro; both engines do the same and run each core the build of the type the launcher started it as
(kernel_view.core_builds; runtime/guest/guest.cpp, runtime/candidate.cpp)."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, EvalResult, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient
from npu_daemon.backends.common import kernel_view

# level1/add on one AIC + AIV group: the AIC's build adds element 0 with scalar GM accesses, the
# AIV's build the rest with the vector unit. Each part exists only under its core's macro, so one
# build with neither macro does not compile, one with both runs vector code on the AIC. CHECK
# writes a wrong sum unless the running core's type (the emulation's) is the build's.
MIXED = """#include "kernel_operator.h"

using namespace AscendC;

#if defined(__DAV_C220_CUBE__) && defined(__DAV_C220_VEC__)
#error both core types' macros in one build
#endif

#if defined(__DAV_C220_CUBE__)
__aicore__ inline void Part(GlobalTensor<DTYPE_X>& x, GlobalTensor<DTYPE_X>& y, GlobalTensor<DTYPE_X>& z,
                            uint32_t n) {
  const float wrong = CHECK(!ASCEND_IS_AIC);
  z.SetValue(0, static_cast<DTYPE_X>(static_cast<float>(x.GetValue(0)) + static_cast<float>(y.GetValue(0)) + wrong));
  DataCacheCleanAndInvalid<DTYPE_X, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(z);
}
#elif defined(__DAV_C220_VEC__)
__aicore__ inline void Part(GlobalTensor<DTYPE_X>& x, GlobalTensor<DTYPE_X>& y, GlobalTensor<DTYPE_X>& z,
                            uint32_t n) {
  constexpr uint32_t TILE = 4096;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * TILE * sizeof(DTYPE_X));
  LocalTensor<DTYPE_X> a = buf.GetWithOffset<DTYPE_X>(TILE, 0);
  LocalTensor<DTYPE_X> c = buf.GetWithOffset<DTYPE_X>(TILE, TILE * sizeof(DTYPE_X));
  const DataCopyPadExtParams<DTYPE_X> pad{false, 0, 0, 0};
  const float wrong = CHECK(ASCEND_IS_AIC);
  for (uint32_t i = 1; i < n; i += TILE) {
    const uint32_t len = n - i < TILE ? n - i : TILE;
    const DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
    DataCopyPad(a, x[i], p, pad);
    DataCopyPad(c, y[i], p, pad);
    PipeBarrier<PIPE_ALL>();
    Add(a, a, c, (len * sizeof(DTYPE_X) + 31) / 32 * 32 / sizeof(DTYPE_X));
    PipeBarrier<PIPE_V>();
    Adds(a, a, static_cast<DTYPE_X>(wrong), (len * sizeof(DTYPE_X) + 31) / 32 * 32 / sizeof(DTYPE_X));
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(z[i], a, p);
    PipeBarrier<PIPE_ALL>();
  }
}
#endif

extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  GET_TILING_DATA(t, tiling);
  const uint32_t n = t.totalLength;
  GlobalTensor<DTYPE_X> xg, yg, zg;
  xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, n);
  yg.SetGlobalBuffer((__gm__ DTYPE_X*)y, n);
  zg.SetGlobalBuffer((__gm__ DTYPE_X*)z, n);
  Part(xg, yg, zg, n);
}
"""
# The wrong term a core adds when it runs the other type's build.
CHECK = "CHECK(mismatch)", "((mismatch) ? 100.0f : 0.0f)"

# level1/add's own kernel, its body for a vector core's build only: under neither macro, or the
# cube's, the output stays unwritten.
VECTOR_GUARD = """
#if defined(__DAV_C220_CUBE__) || !defined(__DAV_C220_VEC__) || !defined(__DAV_VEC__)
#error not a vector core's build
#endif
"""


def with_block_dim(pkg: OperatorPackage, block_dim: int) -> str:
    host = pkg.files[pkg.host_path]
    old = "BLOCK_DIM = 40;"
    assert old in host
    return host.replace(old, f"BLOCK_DIM = {block_dim};")


def mixed(kernel: str = MIXED) -> OperatorPackage:
    pkg = resolve("level1/add")
    check = f"#define {CHECK[0]} {CHECK[1]}\n"
    return pkg.with_sources(tiling=with_block_dim(pkg, 1), kernel=check + kernel)


def evaluate(address: str, pkg: OperatorPackage) -> EvalResult:
    client = DaemonClient(address)
    try:
        return client.evaluate(
            EvalRequest(
                run_id="core-type-macros",
                package=pkg,
                stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
                timeouts=Timeouts(build_s=300, run_s=120),
            )
        )
    finally:
        client.close()


def test_builds_follow_the_launch_core_types():
    pkg = mixed()
    assert kernel_view.core_builds(pkg) == {
        "aic": {"__DAV_C220_CUBE__": "1", "__DAV_CUBE__": "1"},
        "aiv": {"__DAV_C220_VEC__": "1", "__DAV_VEC__": "1"},
    }
    plain = resolve("level1/add")
    # A kernel that tests no macro keeps its one build, whatever cores run it.
    assert kernel_view.core_builds(plain) == {"": {}}
    guarded = plain.with_sources(kernel=VECTOR_GUARD + plain.files[plain.kernel_path])
    assert list(kernel_view.core_builds(guarded)) == ["aiv"]
    cube = MIXED.replace("KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_AIC_ONLY")
    assert list(kernel_view.core_builds(mixed(cube))) == ["aic"]


def test_a_mixed_kernel_runs_each_core_type_its_own_build(guest_daemon):
    result = evaluate(guest_daemon, mixed())
    assert result.status is Status.OK, result.message
    assert result.cases and all(c.passed for c in result.cases)


def test_the_native_engine_builds_per_core_type_as_the_guest_does(engines):
    # One build with neither macro has no Part: the native engine compiles one per core type too,
    # and each core runs its own (the values), at the guest engine's simulated latency.
    guest = engines.same(mixed())
    assert guest.cases and all(c.max_abs_error == 0.0 for c in guest.cases)


def test_a_vector_kernel_builds_under_the_vector_macro(guest_daemon):
    pkg = resolve("level1/add")
    guarded = pkg.with_sources(kernel=VECTOR_GUARD + pkg.files[pkg.kernel_path])
    result = evaluate(guest_daemon, guarded)
    assert result.status is Status.OK, result.message


@pytest.mark.parametrize(
    "steer",
    [
        # The kernel defines the other type's macro itself: it changes its own text, never which
        # build a core runs, so the build compiled for the AIV has both and stops at the #error.
        "#define __DAV_C220_CUBE__ 1\n",
        # Or takes its type's macro away: that build has neither part.
        "#undef __DAV_C220_VEC__\n#undef __DAV_C220_CUBE__\n",
    ],
    ids=["defines_cube", "undefines"],
)
def test_the_kernel_cannot_choose_a_core_build(engines, steer):
    for result in engines.both(mixed(steer + MIXED)):
        assert result.status is Status.COMPILE_ERROR, result.message
