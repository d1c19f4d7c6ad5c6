"""sandbox.run confines a command through sandbox_exec: no Python runs in the child, the limits and
no_new_privs hold, and a fault of the set-up is the daemon's (an OSError), not the command's."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from npu_daemon import sandbox

_python_forks = 0
_counting = threading.local()


def _count_fork() -> None:
    global _python_forks
    if getattr(_counting, "on", False):
        _python_forks += 1


os.register_at_fork(before=_count_fork)  # runs on os.fork and before a preexec_fn child only


@pytest.fixture()
def identity():
    if os.geteuid() != 0:
        pytest.skip("switching to a sandbox user needs root")
    # A uid no daemon of these tests claims (their blocks start at npu_daemon's SANDBOX_UID).
    who = sandbox.Identity(uid=59_999, gid=59_999)
    sandbox.configure(who)
    yield who
    sandbox.configure(None)


def test_a_command_starts_without_forking_python(tmp_path):
    _counting.on = True
    try:
        done = sandbox.run(["/bin/true"], tmp_path, 10.0, sandbox.Limits())
    finally:
        _counting.on = False
    assert done.returncode == 0
    assert _python_forks == 0


def test_limits_and_no_new_privs_hold(tmp_path):
    limits = sandbox.Limits(cpu_s=7, address_space_mb=900, file_size_mb=3, open_files=40)
    script = (
        "ulimit -t; ulimit -v; ulimit -f; ulimit -n; ulimit -c; grep NoNewPrivs /proc/self/status"
    )
    done = sandbox.run(["/bin/sh", "-c", script], tmp_path, 10.0, limits)
    assert done.returncode == 0, done.stderr
    # sh prints -v in KiB and -f in blocks of 512 bytes
    assert done.stdout.split() == [
        "7",
        str(900 * 1024),
        str(3 * 2048),
        "40",
        "0",
        "NoNewPrivs:",
        "1",
    ]


def test_a_workers_memory_cap_bounds_all_but_the_data_mapped_for_a_command(tmp_path):
    # A daemon's worker caps each command at its share of the machine (sandbox.cap_memory): the
    # command's own address space, not the case's data mapped for it (GM's two views).
    limits = sandbox.Limits(address_space_mb=5000, mapped_mb=300)
    sandbox.cap_memory(1000)
    try:
        capped = sandbox.run(["/bin/sh", "-c", "ulimit -v"], tmp_path, 10.0, limits)
        small = sandbox.run(
            ["/bin/sh", "-c", "ulimit -v"], tmp_path, 10.0, sandbox.Limits(address_space_mb=900)
        )
    finally:
        sandbox.cap_memory(None)
    assert capped.stdout.split() == [str(1300 * 1024)], capped.stderr
    assert small.stdout.split() == [str(900 * 1024)], small.stderr


def test_a_missing_command_is_an_oserror(tmp_path):
    with pytest.raises(FileNotFoundError, match="sandbox_exec"):
        sandbox.run([str(tmp_path / "absent")], tmp_path, 10.0, sandbox.Limits())


def test_the_user_namespaces_and_read_only_mounts(tmp_path, identity):
    script = "id -u; id -g; echo x > mine && echo wrote; echo x > /etc/sandbox_probe || echo ro"
    done = sandbox.run(["/bin/sh", "-c", script], tmp_path, 10.0, sandbox.Limits())
    assert done.stdout.split() == [str(identity.uid), str(identity.gid), "wrote", "ro"]
    assert not os.path.exists("/etc/sandbox_probe")
    for ns in ("ipc", "mnt", "net"):
        probe = sandbox.run(["readlink", f"/proc/self/ns/{ns}"], tmp_path, 10.0, sandbox.Limits())
        assert probe.stdout.strip() != os.readlink(f"/proc/self/ns/{ns}"), ns


def test_a_set_up_fault_is_an_oserror_not_the_commands_status(tmp_path, identity):
    gone = tmp_path / "gone"
    sandbox.configure(identity.model_copy(update={"writable": [gone]}))
    gone.mkdir()
    cmd = ["/bin/true", "-o", str(gone / "out")]  # names an output in a writable directory
    gone.rmdir()  # ... which is gone when its bind mount is made
    with pytest.raises(OSError, match="sandbox_exec"):
        sandbox.run(cmd, tmp_path, 10.0, sandbox.Limits())


def test_a_forked_call_gets_no_new_privs_too(tmp_path):
    def show() -> None:  # to descriptor 1 itself: pytest captures sys.stdout
        status = Path("/proc/self/status").read_text().splitlines()
        os.write(1, next(line for line in status if line.startswith("NoNewPrivs")).encode())

    done = sandbox.call(show, tmp_path, 10.0, sandbox.Limits())
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["NoNewPrivs:", "1"]


def test_a_view_holds_its_paths_alone(tmp_path, identity):
    # A compile's view (build.view): the toolchain, read-only paths, its own directory writable;
    # nothing else of the host exists in it, not even for a probe of a path's existence.
    seen, cwd = tmp_path / "seen", tmp_path / "seen" / "build"
    cwd.mkdir(parents=True)
    (seen / "header.h").write_text("#define SEEN 1\n")
    (tmp_path / "hidden.h").write_text("#define HIDDEN 1\n")
    tmp_path.chmod(0o755)
    seen.chmod(0o755)
    script = (
        "ls /; test -e /etc/passwd || echo no-passwd; "
        f"test -e {tmp_path / 'hidden.h'} || echo no-hidden; cat ../header.h; "
        "echo x > ../put || echo read-only; echo y > mine && echo wrote; "
        'printf \'#if __has_include("/etc/passwd")\\n#error seen\\n#endif\\n'
        '#include "../header.h"\\nint v = SEEN;\\n\' > a.cpp && g++ -c a.cpp -o a.o && echo compiled'
    )
    done = sandbox.run(["/bin/sh", "-c", script], cwd, 60.0, sandbox.Limits(), view=[seen])
    assert done.returncode == 0, done.stderr
    top = {p.parts[1] for p in [*sandbox.TOOLCHAIN, seen]}  # usr, bin, lib..., dev, tmp
    lines = done.stdout.split("\n")
    assert set(lines[: len(top)]) == top, lines
    assert lines[len(top) :] == [
        "no-passwd",
        "no-hidden",
        "#define SEEN 1",
        "read-only",
        "wrote",
        "compiled",
        "",
    ]
    assert not (seen / "put").exists() and (cwd / "mine").exists()


def test_a_missing_view_path_is_an_oserror(tmp_path, identity):
    with pytest.raises(FileNotFoundError, match="sandbox_exec"):
        sandbox.run(["/bin/true"], tmp_path, 10.0, sandbox.Limits(), view=[tmp_path / "absent"])


def test_a_view_path_under_a_link_is_seen_by_both_names(tmp_path, identity):
    # The cache's path may pass through a link: a compile names it as given, or as resolved.
    real = tmp_path / "real"
    (real / "sub" / "build").mkdir(parents=True)
    (real / "sub" / "h.h").write_text("x\n")
    (tmp_path / "alias").symlink_to(real)
    for d in (tmp_path, real, real / "sub"):
        d.chmod(0o755)
    names = f"{tmp_path / 'alias' / 'sub' / 'h.h'} {real / 'sub' / 'h.h'}"
    view = [tmp_path / "alias" / "sub"]
    done = sandbox.run(
        ["cat", *names.split()], real / "sub" / "build", 10.0, sandbox.Limits(), view=view
    )
    assert done.stdout.split() == ["x", "x"], done.stderr


def test_commands_run_at_once_in_one_directory_keep_their_own_logs(tmp_path):
    """A build's acceptance check preprocesses beside its compiles in one directory: each command's
    stderr is its own (two opens of one `.stderr` path truncated each other: a compiler's error
    came back as "exited with 1 and no output")."""
    limits = sandbox.Limits(cpu_s=5)
    slow = ["/bin/sh", "-c", "echo first-error >&2; sleep 0.5; exit 1"]
    fast = ["/bin/sh", "-c", "sleep 0.2; echo second >&2"]
    done = {}
    first = threading.Thread(target=lambda: done.update(a=sandbox.run(slow, tmp_path, 5, limits)))
    first.start()
    done["b"] = sandbox.run(fast, tmp_path, 5, limits)
    first.join()
    assert (done["a"].returncode, done["a"].stderr) == (1, "first-error\n")
    assert done["b"].stderr == "second\n"


def test_a_long_log_keeps_its_first_error_and_its_end(tmp_path):
    """A compiler's first error is its cause: a log longer than the bound comes back as its first
    and last halves, the elision counted (the last 8 KiB alone lost clang's first error)."""
    lines = "; ".join(f"echo line{i:05d} >&2" for i in range(2000))
    done = sandbox.run(["/bin/sh", "-c", lines], tmp_path, 10, sandbox.Limits(cpu_s=5))
    assert done.stderr.startswith("line00000\n")
    assert done.stderr.endswith("line01999\n")
    assert "bytes ...]" in done.stderr
    assert len(done.stderr) < sandbox.LOG_BYTES + 64
