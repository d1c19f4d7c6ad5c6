"""A served program's commands (zygote.py: forks of a started copy) are confined exactly as
sandbox_exec confines them, time out with their process group, and fall back to sandbox_exec
when the server fails."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest

from npu_daemon import sandbox, zygote

SH = "/bin/sh"
# Who runs it, its limits and what of the host it sees (no /proc in a view).
PROBE = (
    "id -u; id -g; ulimit -t; ulimit -v; ulimit -n; ls /; test -e /etc/passwd || echo no-passwd; "
    "echo x > mine && echo wrote; echo x > ../put || echo read-only; pwd; echo $HOME"
)


@pytest.fixture()
def identity():
    if os.geteuid() != 0:
        pytest.skip("switching to a sandbox user needs root")
    who = sandbox.Identity(uid=59_998, gid=59_998)  # no daemon of these tests claims it
    sandbox.configure(who)
    yield who
    sandbox.configure(None)
    zygote.stop(SH)


def _dirs(tmp_path):
    seen, cwd = tmp_path / "seen", tmp_path / "seen" / "build"
    cwd.mkdir(parents=True)
    tmp_path.chmod(0o755)
    seen.chmod(0o755)
    return seen, cwd


def test_a_served_command_is_confined_as_sandbox_execs(tmp_path, identity):
    seen, cwd = _dirs(tmp_path)
    limits = sandbox.Limits(cpu_s=7, address_space_mb=900, open_files=40)
    direct = sandbox.run([SH, "-c", PROBE], cwd, 20.0, limits, view=[seen])
    (cwd / "mine").unlink()
    zygote.serve(SH)
    before = zygote.cpu_s()
    served = sandbox.run([SH, "-c", PROBE], cwd, 20.0, limits, view=[seen])
    assert served.returncode == direct.returncode == 0, served.stderr
    assert served.stdout == direct.stdout
    top = sorted({p.parts[1] for p in [*sandbox.TOOLCHAIN, seen]})  # usr, bin, lib..., dev, tmp
    assert served.stdout.split() == [
        *[str(identity.uid), str(identity.gid), "7", str(900 * 1024), "40"],
        *top,
        *["no-passwd", "wrote", "read-only", str(cwd), str(cwd)],
    ]
    assert zygote.cpu_s() > before  # it ran in a fork of the server, which reported its CPU


def test_a_server_serves_one_command_after_another(tmp_path, identity):
    seen, cwd = _dirs(tmp_path)
    zygote.serve(SH)
    pids = set()
    for _ in range(3):
        done = sandbox.run([SH, "-c", "echo $PPID"], cwd, 10.0, sandbox.Limits(), view=[seen])
        assert done.returncode == 0, done.stderr
        pids.add(done.stdout.strip())
    assert len(pids) == 1  # every command a child of the same started copy


def test_a_timeout_kills_the_command_and_its_group(tmp_path, identity):
    seen, cwd = _dirs(tmp_path)
    zygote.serve(SH)
    start = time.monotonic()
    done = sandbox.run([SH, "-c", "sleep 60 & sleep 60"], cwd, 1.0, sandbox.Limits(), view=[seen])
    assert done.timed_out and done.returncode < 0
    assert time.monotonic() - start < 10
    time.sleep(0.2)
    # The background sleep died with the group (left to whoever reaps orphans: a daemon worker).
    for pid in sandbox._processes_of(identity.uid):
        with contextlib.suppress(FileNotFoundError):  # reaped meanwhile
            assert Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


def test_a_set_up_fault_is_an_oserror(tmp_path, identity):
    seen, cwd = _dirs(tmp_path)
    zygote.serve(SH)
    with pytest.raises(FileNotFoundError, match="sandbox_exec"):
        sandbox.run([SH, "-c", "true"], cwd, 10.0, sandbox.Limits(), view=[tmp_path / "absent"])
    done = sandbox.run([SH, "-c", "echo ok"], cwd, 10.0, sandbox.Limits(), view=[seen])
    assert done.stdout == "ok\n" and zygote.serves(SH)  # the server serves on


def test_a_dead_server_falls_back_to_sandbox_exec(tmp_path, identity):
    seen, cwd = _dirs(tmp_path)
    zygote.serve(SH)
    server = zygote.take(SH)
    server.process.kill()
    server.process.wait()
    zygote.give_back(SH, server)
    done = sandbox.run([SH, "-c", "id -u"], cwd, 10.0, sandbox.Limits(), view=[seen])
    assert done.returncode == 0 and done.stdout.split() == [str(identity.uid)]
    assert not zygote.serves(SH)


def test_without_a_sandbox_identity_a_served_command_gets_its_limits_and_directory(tmp_path):
    # A daemon that is not root: no identity and no view, limits and no_new_privs alone, as
    # sandbox_exec's short form gives them.
    zygote.serve(SH)
    try:
        before = zygote.cpu_s()
        done = sandbox.run(
            [SH, "-c", "pwd; ulimit -t; ulimit -n"],
            tmp_path,
            10.0,
            sandbox.Limits(cpu_s=9, open_files=30),
        )
    finally:
        zygote.stop(SH)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path.resolve()), "9", "30"]
    assert zygote.cpu_s() > before
