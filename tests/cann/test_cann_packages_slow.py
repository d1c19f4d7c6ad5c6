"""The simulator's 20 custom-op-style packages (tiling keys, SyncAll, struct fields, attrs, bf16...)
build with the kernel-launch project and pass every correctness case on the fake toolkit."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_gym.package import load_package
from ascend_gym.protocol import EvalRequest, Stage, Status
from npu_daemon.backends.cann import CannBackend, CannConfig

PACKAGES = Path(__file__).resolve().parents[1] / "sim" / "packages"
NAMES = sorted(p.name for p in PACKAGES.iterdir() if (p / "op.toml").exists())
# The sim backend shows a kernel only the TilingData structs of its host tiling header (per tiling
# key where registered so), defines ORIG_DTYPE_<ARG> as a DT_* enumerator and renames entries named
# like libc functions; the cann backend's kernel entry does not do these yet (docs/cann.md).
KERNEL_VIEW_GAP = {"expand_rows", "expm1", "keyed_tiling", "orig_dtype_branch", "softsign_struct"}
CASES = [pytest.param(n, marks=pytest.mark.xfail(reason="cann kernel entry lacks the sim's kernel view", strict=True))
         if n in KERNEL_VIEW_GAP else n for n in NAMES]


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_package_passes_on_cann(name: str, cann_env: Path, tmp_path: Path) -> None:
    backend = CannBackend(CannConfig(state_dir=tmp_path / "state"))
    request = EvalRequest(package=load_package(PACKAGES / name), stages=[Stage.COMPILE, Stage.CHECK])
    result = backend.evaluate(request, tmp_path)
    assert result.status is Status.OK, f"{result.status}: {result.message}\n{result.log_tail}"
    assert result.cases and all(c.passed for c in result.cases)
