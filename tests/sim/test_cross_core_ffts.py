"""The CCE intrinsics under CrossCoreSetFlag / CrossCoreWaitFlag and the library's names for them
(asc-devkit dav_c220 kernel_operator_sync_impl.h): `ffts_cross_core_sync(pipe, GetffstMsg(mode,
flag))` sets, `wait_flag_dev(flag)` waits, NotifyEvent is a mode-2 set and WaitEvent a wait. A wait
that no set releases is a deadlock the emulation names, and a config that is no FFTS message stops
the kernel."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core.suite.cube_ref import mmad
from tests.sim.test_cube_mix import CROSS, MIX

# test_cube_mix's AIC <-> AIV exchange with its flags set and awaited through each other form.
FORMS = {
    "ffts": {
        "CrossCoreSetFlag<2, PIPE_MTE3>(5);": "ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(2, 5));",
        "CrossCoreWaitFlag(3);": "wait_flag_dev(3);",
        "CrossCoreWaitFlag(5);": "wait_flag_dev(5);",
        "CrossCoreSetFlag<2, PIPE_FIX>(3);": "ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (3 << 8));",
    },
    "events": {
        "CrossCoreSetFlag<2, PIPE_MTE3>(5);": "NotifyEvent<PIPE_MTE3>(5);",
        "CrossCoreWaitFlag(3);": "WaitEvent(3);",
        "CrossCoreWaitFlag(5);": "WaitEvent<PIPE_S>(5);",
        "CrossCoreSetFlag<2, PIPE_FIX>(3);": "NotifyEvent<PIPE_FIX>(3);",
    },
}


def _cross(form: str) -> str:
    body = CROSS
    for old, new in FORMS[form].items():
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    return body


def _run(kernel, body: str):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((32, 16)).astype(np.float16)
    wt = rng.standard_normal((16, 16)).astype(np.float16)
    run = kernel(
        MIX + body, {"x": x, "wt": wt}, {"y": ("float32", (32, 16))}, block_dim=2, workspace=4096
    )
    return run, x, wt


@pytest.mark.parametrize("form", FORMS)
def test_each_form_synchronises_the_aic_with_its_aivs(kernel, form):
    run, x, wt = _run(kernel, _cross(form))
    run.ok()
    want = np.concatenate([mmad(x[g * 16 : g * 16 + 16] * 2, wt.T) for g in range(2)]) + 1
    np.testing.assert_array_equal(run.outputs["y"], want.astype(np.float32))
    # The same flags through CrossCoreSetFlag / CrossCoreWaitFlag: the same instructions, the same time.
    same, _, _ = _run(kernel, CROSS)
    assert run.result["latency_us"] == pytest.approx(same.ok().result["latency_us"], rel=1e-9)


# Each AIV copies its own block through the UB with SyncAll's mode-0 set and wait in between: the
# wait returns once every AIV has set (`SETS` names who sets); a core left out deadlocks them all.
MODE_0 = """
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x); gy.SetGlobalBuffer((__gm__ float*)y);
    TPipe pipe; TBuf<> ub; pipe.InitBuffer(ub, 256);
    LocalTensor<float> t = ub.Get<float>();
    const int b = GetBlockIdx();
    DataCopy(t, gx[b * 64], 64);
    if (SETS) ffts_cross_core_sync(PIPE_MTE2, GetffstMsg(0, SYNC_AIV_ONLY_ALL));
    wait_flag_dev(SYNC_AIV_ONLY_ALL);
    SetFlag<HardEvent::MTE2_MTE3>(0); WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(gy[b * 64], t, 64);
    """


def test_mode_0_releases_the_wait_once_every_aiv_has_set(kernel):
    x = np.arange(4 * 64, dtype=np.float32)
    run = kernel(
        MODE_0.replace("SETS", "true"), {"x": x}, {"y": ("float32", (4 * 64,))}, block_dim=4
    ).ok()
    np.testing.assert_array_equal(run.outputs["y"], x)
    lone = kernel(
        MODE_0.replace("SETS", "b != 3"), {"x": x}, {"y": ("float32", (4 * 64,))}, block_dim=4
    )
    assert lone.status == "RUNTIME_ERROR" and "wait_flag_dev(14)" in lone.message, lone.message


def test_wait_flag_dev_without_a_set_is_a_deadlock_naming_the_flag(kernel):
    run = kernel(
        MIX + "if ASCEND_IS_AIV { wait_flag_dev(7); }",
        {"x": np.zeros(16, np.float16)},
        {"y": ("float16", (16,))},
    )
    assert run.status == "RUNTIME_ERROR"
    assert "deadlock" in run.message and "wait_flag_dev(7)" in run.message


@pytest.mark.parametrize(
    "call,words",
    [
        ("ffts_cross_core_sync(PIPE_MTE3, (2 << 4) | (3 << 8));", "no FFTS message"),
        ("ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(3, 3));", "mode 3"),
        ("ffts_cross_core_sync(PIPE_S, GetffstMsg(2, 3));", "pipe"),
        ("wait_flag_dev(16);", "flag id 16 out of range"),
    ],
)
def test_a_malformed_set_or_wait_stops_the_kernel(kernel, call, words):
    run = kernel(
        MIX + f"if ASCEND_IS_AIV {{ {call} }}",
        {"x": np.zeros(16, np.float16)},
        {"y": ("float16", (16,))},
    )
    assert run.status == "RUNTIME_ERROR" and words in run.message, run.message
