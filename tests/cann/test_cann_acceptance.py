"""The cann backend's kernels are built by the vendor's compiler, not by build.py: the one
evaluation entry reads them as the sim build would, so a kernel that pastes inline assembly
together is refused before the CANN project is built (the fake toolkit: tests/cann). (A call, a
system call's included, is the link gate's on the native programs; the device links no libc.)"""

from __future__ import annotations

from pathlib import Path

from test_cann_backend import edit_kernel, small_add

from ascend_core.protocol import EvalRequest, Status
from npu_daemon import evaluation
from npu_daemon.backends.cann import CannBackend, CannConfig

ENTRY = "GM_ADDR workspace, GM_ADDR tiling) {"


def test_pasted_assembly_in_a_cann_kernel_is_rejected(cann_env: Path, tmp_path: Path) -> None:
    pkg = edit_kernel(small_add(), ENTRY, ENTRY + '\n  if (0) P(__as, m__)("nop");')
    pkg = pkg.with_sources(kernel="#define P(a, b) a##b\n" + pkg.kernel_source)
    backend = CannBackend(CannConfig(warmup=1, repeats=1, state_dir=tmp_path / "state"))
    result = evaluation.evaluate(backend, EvalRequest(package=pkg), tmp_path)
    assert result.status is Status.REJECTED, result.message
    assert "`__asm__` is not allowed" in result.message and result.cost.compile_s == 0
    ok = evaluation.evaluate(backend, EvalRequest(package=small_add()), tmp_path)
    assert ok.status is Status.OK, ok.message
