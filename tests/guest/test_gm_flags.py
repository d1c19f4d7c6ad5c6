"""Cores that meet by flags in GM on both engines (issue 52): level1/add rewritten as two cores, one
copying x into z and raising a flag in the workspace, the other waiting for it and adding y into z.
The poll's yield, the race check's acquire and the deadlock of a poll no one ends are the native
emulation's (every guest import is served by it), so both engines give one verdict and latency."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve

KERNEL = """#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 4096;

extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  const uint32_t n = t.totalLength;
  GlobalTensor<DTYPE_X> xg, yg, zg;
  xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, n);
  yg.SetGlobalBuffer((__gm__ DTYPE_X*)y, n);
  zg.SetGlobalBuffer((__gm__ DTYPE_X*)z, n);
  GlobalTensor<int32_t> flag;
  flag.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), 16);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * TILE * sizeof(DTYPE_X) + 32);
  LocalTensor<DTYPE_X> a = buf.GetWithOffset<DTYPE_X>(TILE, 0);
  LocalTensor<DTYPE_X> c = buf.GetWithOffset<DTYPE_X>(TILE, TILE * sizeof(DTYPE_X));
  LocalTensor<int32_t> f = buf.GetWithOffset<int32_t>(8, 2 * TILE * sizeof(DTYPE_X));
  const DataCopyPadExtParams<DTYPE_X> pad{false, 0, 0, 0};
  INIT
  if (GetBlockIdx() == PRODUCER) {
    for (uint32_t i = 0; i < n; i += TILE) {
      const uint32_t len = n - i < TILE ? n - i : TILE;
      const DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
      DataCopyPad(a, xg[i], p, pad);
      PipeBarrier<PIPE_ALL>();
      DataCopyPad(zg[i], a, p);
      PipeBarrier<PIPE_ALL>();
    }
    RAISE
  } else {
    WAIT
    for (uint32_t i = 0; i < n; i += TILE) {
      const uint32_t len = n - i < TILE ? n - i : TILE;
      const DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
      DataCopyPad(a, zg[i], p, pad);
      DataCopyPad(c, yg[i], p, pad);
      PipeBarrier<PIPE_ALL>();
      Add(a, a, c, (len * sizeof(DTYPE_X) + 31) / 32 * 32 / sizeof(DTYPE_X));
      PipeBarrier<PIPE_ALL>();
      DataCopyPad(zg[i], a, p);
      PipeBarrier<PIPE_ALL>();
    }
  }
}
"""
POLL = {
    "INIT": "",
    "RAISE": "Duplicate(f, 1, 8);\n    PipeBarrier<PIPE_ALL>();\n    DataCopy(flag, f, 8);",
    "WAIT": "do {\n      DataCopy(f, flag, 8);\n      PipeBarrier<PIPE_ALL>();\n    } while (f.GetValue(0) != 1);",
}
# The flag stored through a raw __gm__ pointer (an import of the guest's rewritten store).
RAW = {
    **POLL,
    "RAISE": "PipeBarrier<PIPE_ALL>();\n    *(__gm__ int32_t*)GetUserWorkspace(workspace) = 1;",
}
# The flag polled through a raw __gm__ pointer (a load import).
RAW_POLL = {
    **POLL,
    "WAIT": "while (*(volatile __gm__ int32_t*)GetUserWorkspace(workspace) != 1) {\n    }",
}
# The flags start zeroed, as IBSet asks: block 0 zeroes them before a SyncAll.
IB = {
    "INIT": "if (GetBlockIdx() == 0) InitGlobalMemory(flag, 16, 0);\n  SyncAll();",
    "RAISE": "IBSet(flag, f, 0, 0);",
    "WAIT": "IBWait(flag, f, 0, 0);",
}


def two_core_add(producer: int, parts: dict[str, str]) -> OperatorPackage:
    pkg = resolve("level1/add")
    kernel = KERNEL.replace("PRODUCER", str(producer))
    for key, text in parts.items():
        kernel = kernel.replace(key, text)
    host = pkg.files[pkg.host_path]
    for old, new in (
        ("BLOCK_DIM = 40;", "BLOCK_DIM = 2;"),
        (
            "GetWorkspaceSizes(1)[0] = 0;",
            "GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize() + 1024;",
        ),
    ):
        assert old in host, old
        host = host.replace(old, new)
    return pkg.with_sources(tiling=host, kernel=kernel)


@pytest.mark.parametrize(
    ("producer", "parts"),
    # A hand-written poll that really waits (block 0 runs first); IBSet/IBWait and a flag stored
    # through a raw pointer whose consumer comes after the set (it sees the flag unset first); a
    # poll of raw pointer loads that waits.
    [(1, POLL), (0, IB), (0, RAW), (1, RAW_POLL)],
    ids=["poll", "ibset_ibwait", "raw_store", "raw_load_poll"],
)
def test_two_cores_meet_by_a_gm_flag_on_both_engines(engines, producer, parts):
    engines.same(two_core_add(producer, parts))


def check_only(engines, pkg: OperatorPackage) -> tuple:
    request = EvalRequest(
        run_id="gm-flags",
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK],
        timeouts=Timeouts(build_s=300, run_s=120),
    )
    return engines.native.evaluate(request), engines.guest.evaluate(request)


def test_a_forgotten_flag_races_on_both_engines(engines):
    for result in check_only(engines, two_core_add(0, {**POLL, "WAIT": ""})):
        assert result.status is Status.RACE_DETECTED, result.message


def test_a_poll_no_one_ends_is_a_deadlock_on_both_engines(engines):
    for result in check_only(engines, two_core_add(1, {**POLL, "RAISE": ""})):
        assert result.status is Status.RUNTIME_ERROR, result.message
        assert "deadlock" in result.message and "polling GM workspace" in result.message, (
            result.message
        )
