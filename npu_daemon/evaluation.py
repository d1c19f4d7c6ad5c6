"""The one in-process evaluation: every path that evaluates a package comes through `evaluate`
(the daemon's workers, `corpus run`, `suite import`, `suite validate`, `generate --check`), so
none skips the acceptance check (npu_daemon/source_policy.py) or the trusted references;
`accept` runs that check alone, unit by unit as the build does (`corpus check`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import posixpath
import shutil
import tempfile
import time
from pathlib import Path

from ascend_core.package import OperatorPackage, dtype_macros
from ascend_core.protocol import EvalRequest, EvalResult, Status
from npu_daemon import references, sandbox, source_policy
from npu_daemon.backends.base import Backend

log = logging.getLogger("npu_daemon")


# What a package may hold, well past real ones (the largest operator directory of the development
# corpus holds 103 files): each file costs the worker a write, links and lookups in every build
# (0.4 ms; a request of 256 MiB holds 10^7 empty files, hours of a worker and gigabytes of the
# tmpfs's inodes, which its byte quota does not count), and a path the filesystem cannot hold
# (a name past NAME_MAX, a path past PATH_MAX with the evaluation's directory before it, a NUL)
# failed its write: an uncharged daemon fault.
MAX_PACKAGE_FILES = 4096
MAX_PATH_BYTES = 1024
NAME_MAX = 255


class Unbuildable(Exception):
    """The package does not say which of its files to build: the candidate's, REJECTED."""


def unbuildable(pkg: OperatorPackage) -> str | None:
    """Why the package names no host file, kernel file or tiling header that it holds (its spec
    names one it lacks, or two files could be it), or puts a file in a build's own directory
    (build.build_dir), or None. Every build reads all three, found missing there; a package's
    `.build-tiling/op_host/` made the tiling's build directory fail on its links: daemon faults,
    uncharged, after the other builds had compiled for free."""
    from npu_daemon.backends.common.build import BUILD_DIR_PREFIX

    if len(pkg.files) > MAX_PACKAGE_FILES:
        return f"the package holds {len(pkg.files)} files, past the {MAX_PACKAGE_FILES} it may hold"
    own = pkg.spec.tree_path
    for p in pkg.files:  # where write_tree puts it, from the operator's directory
        if why := _unwritable(p):
            return f"{p[:200]!r}: {why}"
        at = posixpath.relpath(p.removeprefix("tree/"), own) if own and p[:5] == "tree/" else p
        if at.startswith(BUILD_DIR_PREFIX):
            return f"{p}: a package file in the build's own directories ({BUILD_DIR_PREFIX}*)"
    try:
        paths = [pkg.host_path, pkg.kernel_path, pkg.tiling_header_path]
    except ValueError as e:
        return str(e)
    missing = [p for p in paths if p not in pkg.files]
    return f"{pkg.spec.name}: the package holds no {', '.join(missing)}" if missing else None


def _unwritable(path: str) -> str | None:
    """Why the filesystem cannot hold a package file at `path`, or None."""
    data = path.encode("utf-8", "surrogateescape")
    if b"\0" in data:
        return "a NUL in a path"
    if len(data) > MAX_PATH_BYTES or max(len(part) for part in data.split(b"/")) > NAME_MAX:
        return f"a path past {MAX_PATH_BYTES} bytes or a name past {NAME_MAX}"
    return None


def evaluate(
    backend: Backend,
    request: EvalRequest,
    work_root: Path,
    disk_quota_mb: int = 0,
) -> EvalResult:
    """One evaluation in a fresh directory private to the sandbox user; a fault is a result.

    A suite operator is judged by the daemon's own spec and reference (`references`); a source
    that breaks the acceptance check (source_policy: the raw files here, each translation unit's
    preprocessed tokens in the build) is REJECTED (charged) before it is compiled. Under a sandbox
    user the directory is a tmpfs of `disk_quota_mb` MiB (0: none): a daemon fault while the
    candidate's files have filled it is the candidate's, a charged RUNTIME_ERROR."""
    start = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="eval-", dir=work_root))
    identity = sandbox.current_identity()
    quota, quota_mb = contextlib.ExitStack(), 0  # quota_mb: that of the tmpfs mounted
    result = EvalResult(
        request_id=request.request_id,
        status=Status.REJECTED,
        backend=backend.name,
        simulated=backend.simulated,
        soc=request.soc,
    )
    try:
        if identity is not None:
            os.chown(workdir, identity.uid, identity.gid)
            if disk_quota_mb:
                quota.enter_context(sandbox.disk_quota(workdir, disk_quota_mb, identity))
                quota_mb = disk_quota_mb
        request = request.model_copy(
            update={"package": references.trusted_package(request.package)}
        )
        if why := unbuildable(request.package):
            raise Unbuildable(why)
        if source_policy.enforced():
            source_policy.check_package(request.package)
            if not backend.simulated:  # its kernels build with the vendor's compiler: read here
                _accept_units(request.package, workdir / "accept", request.timeouts.build_s, False)
        from npu_daemon.backends.common import build  # the toolchain only when evaluating

        with build.sources_pinned():
            result = backend.evaluate(request, workdir)
    except (source_policy.Violation, Unbuildable) as e:
        result = result.model_copy(
            update={"message": str(e), "candidate_hash": request.package.content_hash()}
        )
    except Exception as e:  # a backend fault is still a result, never a dead worker
        # Uncharged, so it carries neither candidate text nor a traceback: those go to the log.
        log.exception("backend failed on %s", request.request_id)
        result = result.model_copy(
            update={"status": Status.DAEMON_ERROR, "message": daemon_fault(e)}
        )
    finally:
        if (
            identity is not None
        ):  # what escaped a command's process group (setsid) ends with the evaluation
            sandbox.kill_all(identity.uid)
        if (
            result.status is Status.DAEMON_ERROR
            and quota_mb
            and sandbox.nearly_full(workdir, quota_mb)
        ):
            result = result.model_copy(
                update={
                    "status": Status.RUNTIME_ERROR,
                    "message": f"the evaluation's files filled its disk quota of {quota_mb} MiB "
                    "(the kernel's or the compiler's output)",
                }
            )
        quota.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return result.model_copy(
        update={"cost": result.cost.model_copy(update={"worker_s": time.monotonic() - start})}
    )


def daemon_fault(e: Exception) -> str:
    """A DAEMON_ERROR's message: the exception's type, and the cause of a runtime build that
    failed (our sources' compiler output, no candidate's: an in-process caller such as
    `corpus run` may have no log to read)."""
    from npu_daemon.backends.common import build

    said = f"the daemon failed on this request ({type(e).__name__}); see its log"
    if isinstance(e, build.RuntimeBuildError):
        said += f": {' '.join(str(e).split())[:600]}"
    return said


def evaluate_alone(backend: Backend, request: EvalRequest) -> EvalResult:
    """`evaluate` under a work root of its own, removed after it: the in-process callers outside
    the daemon (the corpus runner, `suite validate`)."""
    with tempfile.TemporaryDirectory(prefix="ascend-gym-eval-") as root:
        return evaluate(backend, request, Path(root))


def accept(request: EvalRequest, work_root: Path) -> EvalResult:
    """The acceptance check alone, run as the sim backend's build runs it: the raw files, then
    every unit an evaluation of all the spec's cases would compile (the tiling, the kernel of
    each dtype combination), preprocessed and read, none compiled or run (`corpus check`). OK,
    REJECTED, or COMPILE_ERROR for a unit that does not preprocess."""
    from npu_daemon.backends.common import build  # the toolchain only when checking

    pkg = references.trusted_package(request.package)
    result = EvalResult(
        request_id=request.request_id,
        candidate_hash=pkg.content_hash(),
        status=Status.OK,
        backend="sim",
        simulated=True,
        soc=request.soc,
    )
    workdir = Path(tempfile.mkdtemp(prefix="accept-", dir=work_root))
    try:
        source_policy.check_package(pkg)
        _accept_units(pkg, workdir, request.timeouts.build_s, tiling=True)
    except source_policy.Violation as e:
        return result.model_copy(update={"status": Status.REJECTED, "message": str(e)})
    except build.BuildError as e:
        return result.model_copy(update={"status": Status.COMPILE_ERROR, "message": e.log[:2000]})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _accept_units(pkg: OperatorPackage, workdir: Path, timeout_s: float, tiling: bool) -> None:
    """build.accept on the units the sim build compiles: the tiling (if asked) and the kernel of
    each dtype combination of the spec's cases. Without the tiling (a backend whose kernels
    another compiler builds: cann builds its tiling through build.py, checked there), a kernel
    our headers cannot preprocess is left to that compiler."""
    from npu_daemon.backends.common import build
    from npu_daemon.backends.sim import kernel_build

    workdir.mkdir(exist_ok=True)
    root, rt = pkg.write_tree(workdir), build.ensure_runtime()
    if tiling:
        build.accept(build.tiling_unit(pkg, root, rt), timeout_s)
    combos = {
        tuple(sorted(m.items())): m for m in (dtype_macros(pkg.spec, c) for c in pkg.spec.cases)
    }
    for macros in combos.values():
        try:
            build.accept(kernel_build.kernel_unit(pkg, macros, root, rt, timeout_s), timeout_s)
        except build.BuildError:
            if tiling:
                raise
