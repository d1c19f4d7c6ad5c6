"""Run one untrusted command (a compiler on candidate source, a harness running candidate code).

The child gets its own session (so a timeout kills the whole process group), resource limits on
CPU seconds, address space, file size, open files and processes, a scrubbed environment, no
inherited descriptors, no_new_privs, and its output goes to files in its throwaway directory
(bounded by the file-size limit) of which only the tail is read back. A command is confined by
`sandbox_exec` (npu_daemon/sandbox_exec.c, compiled on first use), a small trusted C program
started with vfork that sets all of this up and then execs it; a program registered with
`zygote.serve` (the guest build's clang and wasm-ld) runs each command as a fork of a started copy
instead, confined by the same C code with the same arguments (zygote.py).

A daemon running as root first calls `configure(Identity(...))` in each worker: children then
drop to that worker's own unprivileged uid (root ignores RLIMIT_NPROC; a uid per worker keeps
one worker's processes from counting against another's limit and from reading its files), in a
network namespace of their own (no network at all) and a mount namespace where everything but
their directory (and the backend's build cache) is read-only. A command's process group is killed
when it ends; a child that escaped the group (setsid) is killed with everything else of the uid
by `kill_all`, which the worker calls after each evaluation (commands of one evaluation may run
concurrently, so not after each command).

A command given a `view` (every compile of candidate code: docs/trust_boundary.md) sees a root of
its own that holds nothing but `TOOLCHAIN`, the paths of its view (read-only) and its writable
directories: no other file of the host exists for it, not even to `__has_include`. Without a
sandbox identity (a daemon that is not root) there is no view, as there is no sandbox.
"""

from __future__ import annotations

import ctypes
import functools
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

from pydantic import BaseModel, Field

from npu_daemon import helpers, zygote

LOG_BYTES = 8192  # of a command's log kept: its first and last halves
CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID = (
    0x00020000,
    0x40000000,
    0x08000000,
    0x10000000,
    0x20000000,
)
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE, MS_BIND = 0x2, 0x4, 0x8, 0x4000, 0x40000, 0x1000
MNT_DETACH = 2
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 38, 24, 47, 4
PR_SET_PDEATHSIG = 1
LINUX_CAPABILITY_VERSION_3, CAP_SETPCAP = 0x20080522, 8
SYS_MOUNT_SETATTR, AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = 442, -100, 0x8000, 0x1
_libc = ctypes.CDLL(None, use_errno=True)
# What every view holds: the toolchain's installation, the libraries the dynamic loader finds
# without /etc/ld.so.cache (on a merged /usr, /bin and /lib* are links into it), and /dev/null.
# Neither g++ nor clang needs /proc, /etc or /tmp (TMPDIR is the command's own directory).
TOOLCHAIN = [
    p
    for p in map(Path, ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/dev/null"])
    if os.path.lexists(p)
]


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint32) for n in ("effective", "permitted", "inheritable")]


class Limits(BaseModel):
    cpu_s: int = Field(120, gt=0)
    address_space_mb: int = Field(8192, gt=0)
    # Of address_space_mb, the data mapped for the command (the harness's two views of GM, a
    # reference's inputs and outputs): the case's, not the command's doing, so no cap takes it.
    mapped_mb: int = Field(0, ge=0)
    file_size_mb: int = Field(256, gt=0)  # also bounds what a command can print
    open_files: int = Field(256, gt=0)
    processes: int = Field(128, gt=0)  # threads count too: the harness runs one per parked block


class Identity(BaseModel):
    """The unprivileged user candidate commands run as (only a root daemon can switch to it).

    Its commands also get their own network namespace (no network) and mount namespace, in
    which every filesystem is read-only except the command's directory (and see `_writable`)."""

    uid: int = Field(gt=0)
    gid: int = Field(gt=0)
    writable: list[
        Path
    ] = []  # shared directories a command may write into when it names an output there
    groups: list[int] = []  # supplementary groups, e.g. the one owning an NPU's device nodes


def _writable(cmd: list[str], cwd: Path, identity: Identity) -> list[Path]:
    """Its own directory, plus the shared directories it names an output in (`-o PATH`): the
    compiler writes its artefact into the build cache, while a harness running candidate code
    can write nowhere but its own directory (so it cannot plant artefacts in the cache)."""
    outputs = {(cwd / cmd[i + 1]).parent.resolve() for i, arg in enumerate(cmd[:-1]) if arg == "-o"}
    return [cwd, *(d for d in identity.writable if d in outputs)]


_identity: Identity | None = None
_isolated_netns: int | None = None  # inode of the network namespace isolate_network() made


def configure(identity: Identity | None) -> None:
    """Set, for this process, who sandboxed commands run as (None: the daemon's own user)."""
    global _identity
    _identity = identity


_memory_cap_mb: int | None = None


def cap_memory(mb: int | None) -> None:
    """Set, for this process, the address space no sandboxed command may pass besides the data
    mapped for it, whatever its own limit (a daemon worker's share of the machine's memory; None:
    each command's own limit)."""
    global _memory_cap_mb
    _memory_cap_mb = mb


def memory_cap_mb() -> int | None:
    return _memory_cap_mb


def _address_space_mb(limits: Limits) -> int:
    cap, mapped = _memory_cap_mb, limits.mapped_mb
    own = limits.address_space_mb - mapped
    return mapped + (own if cap is None else min(own, cap))


def current_identity() -> Identity | None:
    return _identity


def isolate_network() -> None:
    """Move this process, and every command it starts from now on, into a network namespace with no
    network. A worker does this once: a namespace per command costs ~2 ms to create, and its
    teardown runs in kernel threads afterwards, on the cores the reply path needs. The worker's
    pipe to the server is not a network connection: it keeps working.
    Only the calling thread moves (and threads it starts later): a command forked from any other
    thread still gets a namespace of its own, as `sandbox_exec` (and `_confine`) check where it
    really is."""
    global _isolated_netns
    _check(_libc.unshare(CLONE_NEWNET), "unshare(CLONE_NEWNET)")
    _isolated_netns = os.stat("/proc/thread-self/ns/net").st_ino


def isolate_mounts() -> None:
    """Give this process (a worker) a mount namespace of its own, private to it: the per-evaluation
    tmpfs mounts (`disk_quota`) are invisible to the host and vanish with the worker, whatever
    kills it. Like `isolate_network`, only the calling thread and the threads it starts later
    move, which is where a worker starts its commands from."""
    _check(_libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")


@contextmanager
def disk_quota(path: Path, mb: int, identity: Identity) -> Iterator[None]:
    """A tmpfs of `mb` MiB mounted on `path` (the evaluation's directory, owned by the sandbox
    user) for the duration: everything the evaluation's commands write counts against it."""
    options = f"size={mb}m,nr_inodes=65536,mode=0700,uid={identity.uid},gid={identity.gid}"
    _check(
        _libc.mount(b"tmpfs", str(path).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()),
        f"mount tmpfs on {path}",
    )
    try:
        yield
    finally:
        _check(_libc.umount2(str(path).encode(), MNT_DETACH), f"umount {path}")


def nearly_full(path: Path, mb: int) -> bool:
    """Whether the `disk_quota` of `mb` MiB on `path` has less than half of it, or 64 MiB, left:
    more than the daemon's own files of an evaluation ever need (a case's outputs), so what took
    the room was the candidate's (its logs, its compiler's temporaries)."""
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize < min(mb << 19, 64 << 20)


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    wall_s: float

    @property
    def signal_name(self) -> str | None:
        if self.returncode < 0:
            try:
                return signal.Signals(-self.returncode).name
            except ValueError:
                return f"signal {-self.returncode}"
        return None


@contextmanager
def logs(cwd: Path) -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """A command's stdout and stderr: files of its own in `cwd` (`.stdout-*`, `.stderr-*`), so
    that commands run in one directory at once (a build's acceptance check preprocesses beside
    its compiles) never truncate each other's logs, as two opens of one path did. They stay
    until the evaluation's directory goes: what a command printed counts against its disk quota
    (a kernel that fills it is charged, evaluation.py)."""
    out_fd, _ = tempfile.mkstemp(prefix=".stdout-", dir=cwd)
    err_fd, _ = tempfile.mkstemp(prefix=".stderr-", dir=cwd)
    with os.fdopen(out_fd, "w+b") as out, os.fdopen(err_fd, "w+b") as err:
        yield out, err


def excerpt(f: IO[bytes]) -> str:
    """A log's first and last LOG_BYTES / 2 (a compiler's first error is its cause, its last lines
    the summary), through the descriptor the command was given: the command may have replaced the
    file at its path (a link to a file only the daemon may read, a FIFO)."""
    size, half = os.fstat(f.fileno()).st_size, LOG_BYTES // 2
    if size <= LOG_BYTES:
        return os.pread(f.fileno(), size, 0).decode(errors="replace")
    head = os.pread(f.fileno(), half, 0).decode(errors="replace")
    tail = os.pread(f.fileno(), half, size - half).decode(errors="replace")
    return f"{head}\n[... {size - 2 * half} bytes ...]\n{tail}"


def _check(rc: int, what: str) -> None:
    if rc != 0:
        raise OSError(ctypes.get_errno(), what)


def _confine(cwd: Path, writable: list[Path], own_proc: bool) -> None:
    """A mount namespace where everything is read-only but `writable` (which holds cwd), with
    `own_proc` a /proc showing only the processes of the user it runs as (another process's
    command line, where a daemon's `--case-secret` is, is world-readable in the host's), an IPC
    namespace of its own (no SysV IPC or POSIX message queue shared with another command), and a
    network namespace of its own unless the process already has one (`isolate_network`)."""
    isolated = (
        _isolated_netns is not None and os.stat("/proc/self/ns/net").st_ino == _isolated_netns
    )
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWIPC | (0 if isolated else CLONE_NEWNET)), "unshare")
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    keep = [str(p).encode() for p in writable]
    for path in keep:  # each its own mount, so it can stay writable under a read-only /
        _check(_libc.mount(path, path, None, MS_BIND | MS_REC, None), f"bind {path!r}")
    if own_proc:
        flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
        _check(_libc.mount(b"proc", b"/proc", b"proc", flags, b"hidepid=invisible"), "mount /proc")
    for path, attr in [
        (b"/", _MountAttr(attr_set=MOUNT_ATTR_RDONLY)),
        *((p, _MountAttr(attr_clr=MOUNT_ATTR_RDONLY)) for p in keep),
    ]:
        _check(
            _libc.syscall(
                SYS_MOUNT_SETATTR,
                AT_FDCWD,
                path,
                AT_RECURSIVE,
                ctypes.byref(attr),
                ctypes.sizeof(attr),
            ),
            f"mount_setattr {path!r}",
        )
    os.chdir(cwd)  # through the writable bind, not the read-only mount the old cwd was on


def confine_client_child(limits: Limits) -> str:
    """In a forked child of a client's own process (no sandbox user to drop to) that runs code
    the client did not write (a model's DSL program, a task's golden traced for generation):
    limits, then every filesystem read-only, no network, no SysV IPC shared and no capability
    left, so what it can change is its own memory, never the parent's verdict or a file. A
    process without root enters a user namespace of its own first, which the mount namespace
    needs. Where the kernel refuses that (no unprivileged user namespaces), the child keeps the
    client's own file access: returns why, "" when confined. Returns in a process of its own
    (`_first_of_own_pids`): the caller's child waits for it and ends as it ends."""
    _set_limits(limits)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    why = ""
    try:
        if os.geteuid() != 0:
            _check(_libc.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
        _confine(Path("/"), [], own_proc=False)
        _check(_libc.unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")
    except OSError as e:
        why = str(e)
    _drop_capabilities()
    _first_of_own_pids()
    return why


def _first_of_own_pids() -> None:
    """Continue in a forked process, the first of the PID namespace the caller entered (where
    it could), which dies with the caller: when the first process of a PID namespace ends, the
    kernel kills every other one in it. So no process the foreign code starts (in a session of
    its own, its descendants' each with a CPU limit of its own) outlives the child its parent
    waits for and kills at the deadline. The caller waits here, then ends as that process did."""
    pid = os.fork()
    if pid == 0:
        _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")
        return
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):  # the same signal, so the parent reports it
        if os.WTERMSIG(status) != signal.SIGKILL:
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def _set_limits(limits: Limits) -> None:
    """CPU seconds, address space, open files, no core dumps: every confined child's."""
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_AS, (_address_space_mb(limits) * 1024 * 1024,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _drop_capabilities() -> None:
    """Every capability gone, for good (bounding and ambient sets too; no_new_privs keeps an exec
    from regaining them). Without this a root child could clear the read-only mounts again, or
    read and write its parent's memory through /proc/PID/mem, where the verdict is made."""
    status = Path("/proc/self/status").read_text()
    effective = int(status.split("CapEff:")[1].split()[0], 16)
    if effective >> CAP_SETPCAP & 1:  # only CAP_SETPCAP may shrink the bounding set
        for cap in range(int(Path("/proc/sys/kernel/cap_last_cap").read_text()) + 1):
            _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), "prctl(PR_CAPBSET_DROP)")
    _check(_libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "prctl(PR_CAP_AMBIENT)")
    header, data = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), data), "capset")


def enter(
    limits: Limits,
    identity: Identity | None,
    cwd: Path,
    writable: list[Path],
    own_proc: bool = False,
) -> None:
    """In a forked child (`call`'s, a reference's): limits first (as root RLIMIT_NPROC may still
    be set), then drop. What `sandbox_exec` does for `run`, which execs and so needs no Python in
    the child. `own_proc` (a child running client code): a /proc of its own user's processes."""
    _set_limits(limits)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_mb * 1024 * 1024,) * 2)
    if identity is not None:
        # RLIMIT_NPROC counts every process of the uid, which is this worker's alone.
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)
        _confine(cwd, writable, own_proc)
        os.setgroups(identity.groups)
        os.setgid(identity.gid)
        os.setuid(identity.uid)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")


def kill_all(uid: int, wait_s: float = 2.0) -> None:
    """SIGKILL every process of `uid` (kill(-1) from a child that became that uid) and wait until
    they are gone: a dying process still counts against the uid's RLIMIT_NPROC until reaped (by
    us when we are a child subreaper, as workers are, else by init)."""
    end = time.monotonic() + wait_s
    # Only the uid's own processes can start more of them: none now means none later, and the
    # fork below (of a large Python process) is skipped in the usual case of nothing left.
    while _processes_of(uid):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child only signals
            try:
                os.setuid(uid)
                os.kill(-1, signal.SIGKILL)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        _reap_orphans()
        if time.monotonic() > end:
            return
        time.sleep(0.005)


def _reap_orphans() -> None:
    """Reap killed descendants that were reparented to us (workers are child subreapers)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _processes_of(uid: int) -> list[int]:
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    pids.append(int(name))
            except FileNotFoundError:
                continue
    return pids


def run(
    cmd: list[str],
    cwd: Path,
    timeout_s: float,
    limits: Limits,
    env: dict[str, str] | None = None,
    pass_fds: tuple[int, ...] = (),
    view: list[Path] | None = None,
) -> Completed:
    """`pass_fds`: descriptors the command inherits (the harness's result descriptor); `view`:
    with a sandbox identity, the only paths the command sees beside `TOOLCHAIN` and the
    directories it may write (module docstring).

    The command is started through `sandbox_exec` (limits, namespaces, user, then exec): without
    a `preexec_fn`, subprocess starts it with vfork instead of copying the worker's large address
    space for a child that runs Python before it execs. A fault of the sandbox's own set-up is an
    OSError here, never the command's exit status."""
    identity = _identity
    cwd = cwd.resolve()
    if identity is not None:  # the command's directory is its own: private to its uid
        os.chown(cwd, identity.uid, identity.gid)
        os.chmod(cwd, 0o700)
    clean_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": str(cwd),
        "TMPDIR": str(cwd),
        **(env or {}),
    }
    if not pass_fds and zygote.serves(cmd[0]):
        try:
            return _forked(cmd, cwd, timeout_s, limits, identity, view, clean_env)
        except zygote.ServerError as e:
            zygote.stop(cmd[0], e)  # sandbox_exec from now on
    start = time.monotonic()
    errors, report = os.pipe2(os.O_CLOEXEC)
    try:
        with logs(cwd) as (out, err):
            try:
                proc = subprocess.Popen(
                    [*_exec_args(report, limits, identity, cwd, cmd, view), "--", *cmd],
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    env=clean_env,
                    start_new_session=True,
                    close_fds=True,
                    pass_fds=(report, *pass_fds),
                )
            finally:
                os.close(report)
            failed = _read_report(errors)
            timed_out = False
            try:
                if not failed:
                    timed_out = _timed_out(proc, timeout_s)
            finally:
                # The whole group: a candidate's children die with it.
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
            if failed:
                raise _setup_fault(failed)
            return Completed(
                proc.returncode, excerpt(out), excerpt(err), timed_out, time.monotonic() - start
            )
    finally:
        os.close(errors)


def _timed_out(proc: subprocess.Popen, timeout_s: float) -> bool:
    """Wait for `proc` at most `timeout_s`: False when it ended. A pidfd wakes the wait when the
    process ends; Popen.wait with a timeout polls, sleeping up to 50 ms between looks, which
    lengthened every command by half that on average (a 74 ms harness run took 115 ms)."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except OSError:  # a kernel without pidfds: the polling wait
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return True
        return False
    try:
        ended = select.select([pidfd], [], [], timeout_s)[0]
    finally:
        os.close(pidfd)
    return not ended


def _forked(
    cmd: list[str],
    cwd: Path,
    timeout_s: float,
    limits: Limits,
    identity: Identity | None,
    view: list[Path] | None,
    env: dict[str, str],
) -> Completed:
    """`run` through a fork server of `cmd[0]` (zygote.py): sandbox_exec's confinement with the
    same arguments, in a fork of a started copy of the program rather than an exec of it."""
    start = time.monotonic()
    errors, report = os.pipe2(os.O_CLOEXEC)
    server = zygote.take(cmd[0])
    try:
        with logs(cwd) as (out, err):
            args = ["sandbox_exec", *_exec_args(zygote.ERRFD, limits, identity, cwd, cmd, view)[1:]]
            try:
                status, timed_out = server.run(
                    [*args, "--", *cmd], env, cwd, (out.fileno(), err.fileno(), report), timeout_s
                )
            except BaseException:
                server.close()
                raise
            finally:
                os.close(report)
            zygote.give_back(cmd[0], server)
            if failed := _read_report(errors):
                raise _setup_fault(failed)
            return _completed(status, out, err, timed_out, start)
    finally:
        os.close(errors)


def _exec_args(
    report: int,
    limits: Limits,
    identity: Identity | None,
    cwd: Path,
    cmd: list[str],
    view: list[Path] | None,
) -> list[str]:
    """The `sandbox_exec` command line before `--` (see npu_daemon/sandbox_exec.c)."""
    args = [
        str(_helper()),
        str(report),
        *map(
            str, [limits.cpu_s, _address_space_mb(limits), limits.file_size_mb, limits.open_files]
        ),
    ]
    if identity is None:
        return args
    return [
        *args,
        *map(str, [limits.processes, identity.uid, identity.gid]),
        ",".join(map(str, identity.groups)),
        str(_isolated_netns or 0),
        str(cwd),
        *map(str, _writable(cmd, cwd, identity)),
        *(["--view", *map(str, TOOLCHAIN), *map(str, _spellings(view))] if view else []),
    ]


def _spellings(view: list[Path]) -> list[Path]:
    """Each path of a view as given (absolute) and, where a link lies on the way, as resolved:
    a command may name it either way (-I of the cache, a compiler's own realpath)."""
    return list(dict.fromkeys(q for p in view for q in (Path(os.path.abspath(p)), p.resolve())))


def _setup_fault(report: str) -> OSError:
    """sandbox_exec's report of a step of its own that failed ("ERRNO STEP"), as the worker's
    OSError: the daemon's fault, never the command's status."""
    code, _, step = report.partition(" ")
    return OSError(int(code), f"sandbox_exec: {step}")


def _read_report(errors: int) -> str:
    """What `sandbox_exec` reported before its exec ('' once the exec closed the pipe)."""
    report = b""
    while chunk := os.read(errors, 512):
        report += chunk
    return report.decode(errors="replace")


HELPER_SOURCE = Path(__file__).with_name("sandbox_exec.c")


@functools.cache
def _helper() -> Path:
    """`sandbox_exec` (it runs as root before it drops to the sandbox user)."""
    return helpers.compiled("sandbox_exec", [HELPER_SOURCE], [])


def child_exit(run: Callable[[], None], report: Callable[[int], None] | None = None) -> NoReturn:
    """End a forked child: `run`, its traceback on its stderr if it raised, the standard streams
    flushed, `report` given the exit status (0 if `run` returned), then `_exit`, so no exit
    handler of the parent's runs."""
    code = 1
    try:
        run()
        code = 0
    except BaseException:  # noqa: BLE001 - reported on its stderr, then the child ends
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            if report is not None:
                report(code)
        finally:
            os._exit(code)


def call(fn: Callable[[], None], cwd: Path, timeout_s: float, limits: Limits) -> Completed:
    """Run `fn` in a forked child confined as `run` confines a command (limits, user, namespaces,
    its own session, every inherited descriptor closed, output to files in `cwd`): for client
    Python (a package's reference) that must not run as the daemon. A fork, not an exec, so the
    sandbox users need no access to the interpreter. Exit status 0 if `fn` returned."""
    identity = _identity
    cwd = cwd.resolve()
    if identity is not None:
        os.chown(cwd, identity.uid, identity.gid)
        os.chmod(cwd, 0o700)
    start = time.monotonic()
    with logs(cwd) as (out, err):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child

            def confined() -> None:
                os.setsid()
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
                enter(limits, identity, cwd, [cwd] if identity is not None else [])
                os.chdir(cwd)
                fn()

            child_exit(confined)
        timed_out = False
        end = start + timeout_s
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > end:
                timed_out = True
                break
            time.sleep(0.01)
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if timed_out:
            status = os.waitpid(pid, 0)[1]
        return _completed(status, out, err, timed_out, start)


def _completed(
    status: int, out: IO[bytes], err: IO[bytes], timed_out: bool, start: float
) -> Completed:
    return Completed(
        os.waitstatus_to_exitcode(status),
        excerpt(out),
        excerpt(err),
        timed_out,
        time.monotonic() - start,
    )
