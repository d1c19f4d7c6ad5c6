"""The one in-process evaluation: every path that evaluates a package comes through `evaluate`
(the daemon's workers, `corpus run`, `corpus check`, `suite import`, `suite validate`), so none
skips the acceptance check (npu_daemon/source_policy.py) or the trusted references.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

from ascend_core.protocol import EvalRequest, EvalResult, Status
from npu_daemon import references, sandbox, source_policy
from npu_daemon.backends.base import Backend

log = logging.getLogger("npu_daemon")


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
        if source_policy.enforced():
            source_policy.check_package(request.package)
        result = backend.evaluate(request, workdir)
    except source_policy.Violation as e:
        result = result.model_copy(
            update={"message": str(e), "candidate_hash": request.package.content_hash()}
        )
    except Exception as e:  # a backend fault is still a result, never a dead worker
        # Uncharged, so it carries neither candidate text nor a traceback: those go to the log.
        log.exception("backend failed on %s", request.request_id)
        result = result.model_copy(
            update={
                "status": Status.DAEMON_ERROR,
                "message": f"the daemon failed on this request ({type(e).__name__}); see its log",
            }
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
