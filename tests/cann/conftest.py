"""Installs the fake CANN toolkit (tests/cann/fake_toolchain) once per session and points the
environment at it the way CANN's set_env.sh would."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ascend_core.soc import socs
from npu_daemon.backends.common import build
from npu_daemon.backends.sim.backend import soc_params

FAKE = Path(__file__).resolve().parent / "fake_toolchain"


@pytest.fixture(scope="session")
def fake_toolkit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("Ascend") / "latest"
    shutil.copytree(FAKE, root)
    rt = build.ensure_runtime()
    (root / "fake_sim.cmake").write_text(
        f'set(FAKE_SIM_INCLUDE "{build.INCLUDE_DIR};{build.HOST_INCLUDE_DIR}")\nset(FAKE_SIM_PCH "{rt.pch_dir}")\nset(FAKE_SIM_RUNTIME "{rt.root}")\n'
    )
    (root / "fake" / "soc").mkdir(parents=True)
    for soc in socs():
        (root / "fake" / "soc" / f"{soc}.txt").write_text(
            "".join(f"{k} {v}\n" for k, v in soc_params(soc).items())
        )
    (root / "lib64").mkdir()
    subprocess.run(
        [
            build.CXX,
            *build.CXXFLAGS,
            "-shared",
            f"-I{root / 'include'}",
            *build.INCLUDE_FLAGS,
            f"-I{build.RUNTIME_DIR}",
            str(root / "src" / "fake_acl.cpp"),
            *rt.link_flags(),
            "-o",
            str(root / "lib64" / "libascendcl.so"),
        ],
        check=True,
        capture_output=True,
    )
    return root


@pytest.fixture
def cann_env(fake_toolkit: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The fake toolkit on PATH / LD_LIBRARY_PATH; returns the log the fake tools append to."""
    rt = build.ensure_runtime()
    monkeypatch.setenv("ASCEND_HOME_PATH", str(fake_toolkit))
    monkeypatch.setenv("PATH", f"{fake_toolkit / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("LD_LIBRARY_PATH", f"{fake_toolkit / 'lib64'}{os.pathsep}{rt.root}")
    monkeypatch.setenv("ASCEND_FAKE_STATE", str(tmp_path))
    monkeypatch.setenv("ASCEND_FAKE_LOG", str(tmp_path / "fake_tools.jsonl"))
    monkeypatch.delenv("ASCEND_FAKE_NPU_HEALTH", raising=False)
    return tmp_path / "fake_tools.jsonl"
