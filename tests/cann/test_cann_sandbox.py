"""A root cann daemon runs its candidates as the sandbox users: the CMake build, the host tiling
program, the device app and msprof get the toolkit, the built apps and the device nodes' groups."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cann_backend import edit_kernel, small_add

from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon import sandbox
from npu_daemon.backends.cann import CannBackend, CannConfig, device, tiling
from npu_daemon.backends.common import build
from npu_daemon.main import sandbox_access
from npu_daemon.service.workers import SandboxUnavailable, prepare_sandbox

DEVICE_GID = 4242  # the group a driver would give its device nodes (HwHiAiUser)
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="sandbox users need a root daemon")


def make_nodes(root: Path) -> tuple[str, ...]:
    """Stand-ins for an NPU's device nodes (files, with the modes and groups a driver gives them)."""
    for name, mode, gid in [
        ("davinci0", 0o660, DEVICE_GID),
        ("davinci_manager", 0o666, 0),
        ("hisi_hdc", 0o660, 0),
    ]:
        (root / name).write_text("ok\n")
        os.chown(root / name, 0, gid)
        (root / name).chmod(mode)
    return tuple(
        f"{root}/{name}" for name in ("davinci[0-9]*", "davinci_manager", "devmm_svm", "hisi_hdc")
    )


@pytest.fixture
def public_dir() -> Iterator[Path]:
    """A directory other users can traverse (pytest's own tmp dirs are private to root)."""
    root = Path(tempfile.mkdtemp(prefix="ascend_gym-cann-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root)


def test_cann_access_names_the_toolkit_built_apps_and_build_cache(
    cann_env: Path, fake_toolkit: Path
) -> None:
    access = sandbox_access("cann")
    assert (
        fake_toolkit in access.read
        and tiling.cache_root() in access.read
        and build.INCLUDE_DIR in access.read
        and build.HOST_INCLUDE_DIR in access.read
    )
    assert access.write == [
        build.cache_root() / "objects"
    ]  # host tiling.so; each CMake build writes its own project only


@as_root
def test_device_node_groups_come_from_the_nodes_that_exist(
    public_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Only the group of a node not open to everyone; root's group is never handed out (the node
    # candidates then cannot open is logged); absent nodes are skipped.
    assert device.node_groups(make_nodes(public_dir)) == [DEVICE_GID]
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        f"sandboxed candidates cannot open {public_dir}/hisi_hdc"
    ]


@as_root
def test_sandbox_users_open_nodes_of_their_supplementary_group(public_dir: Path) -> None:
    node = public_dir / "davinci0"
    make_nodes(public_dir)
    try:
        users = prepare_sandbox(64000, 1, [public_dir], [], [], groups=[DEVICE_GID])
    except SandboxUnavailable as e:
        pytest.skip(f"the sandbox does not work on this machine: {e}")
    work = public_dir / "work"
    work.mkdir()
    try:
        for groups, expected in [([DEVICE_GID], "ok"), ([], "Permission denied")]:
            identity = users.identity(0).model_copy(update={"groups": groups})
            sandbox.configure(identity)
            try:
                done = sandbox.run(["cat", str(node)], work, 10.0, sandbox.Limits())
            finally:
                sandbox.configure(None)
                sandbox.kill_all(identity.uid)
            assert expected in done.stdout + done.stderr
    finally:
        users.release()


@pytest.fixture
def public_toolkit(fake_toolkit: Path, public_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake toolkit where sandbox users can read it, set up as CANN's set_env.sh would."""
    home = public_dir / "latest"
    shutil.copytree(fake_toolkit, home, symlinks=True)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    monkeypatch.setenv("PATH", f"{home / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv(
        "LD_LIBRARY_PATH", f"{home / 'lib64'}{os.pathsep}{build.ensure_runtime().root}"
    )
    monkeypatch.setenv("ASCEND_FAKE_STATE", str(public_dir))
    monkeypatch.delenv(
        "ASCEND_FAKE_LOG", raising=False
    )  # sandboxed tools cannot write a shared log
    monkeypatch.delenv("ASCEND_FAKE_NPU_HEALTH", raising=False)
    return home


@pytest.mark.slow  # starts a root daemon with sandbox users; the sim backend's sandbox tests stay in the default run
@as_root
def test_root_cann_daemon_runs_candidates_as_sandbox_users(
    public_toolkit: Path, tmp_path: Path
) -> None:
    # The kernel traps when it runs as root, so an OK result shows the device app ran unprivileged.
    pkg = edit_kernel(
        small_add(),
        "GM_ADDR workspace, GM_ADDR tiling) {",
        "GM_ADDR workspace, GM_ADDR tiling) {\n  if (getuid() == 0) __builtin_trap();",
    )
    pkg = pkg.with_sources(kernel="#include <unistd.h>\n" + pkg.kernel_source)
    with LocalDaemon(backend="cann", workers=1, state_dir=tmp_path / "daemon") as daemon:
        client = DaemonClient(daemon.address, timeout_s=300)
        try:
            who = client.stats().sandbox_user
            result = client.evaluate(EvalRequest(package=pkg, run_id="cann-sandbox"))
        finally:
            client.close()
    if not who.endswith("+worker"):
        pytest.skip(
            f"the daemon runs candidates as {who}: the sandbox does not work on this machine"
        )
    assert result.status is Status.OK, f"{result.message}\n{result.log_tail}"
    assert result.latency_us is not None  # msprof ran sandboxed too and wrote its output
    # The same candidate run as the daemon's own user (root) traps: the probe is real.
    as_daemon = CannBackend(CannConfig(state_dir=tmp_path / "state")).evaluate(
        EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.CHECK]), tmp_path
    )
    assert as_daemon.status is Status.RUNTIME_ERROR and "SIGILL" in as_daemon.message
