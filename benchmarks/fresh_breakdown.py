"""Where the CPU of a fresh evaluation goes, stage by stage, and what the sandbox costs per command.

    python benchmarks/fresh_breakdown.py [--n 10] [--op level1/add] [--new-seeds] [--fresh]
                                         [--serial] [--backend sim-guest] [--quota-mb 256]

CPU seconds (user + sys of this process and of every child it waited for) do not grow with the
machine's load the way wall time does. The evaluations run in this process exactly as a daemon
worker runs them (`evaluation.evaluate`: the source policy, the daemon's own suite package, the
backend's build, case data, harness runs and checks); run as root, the worker's sandbox is set up
as the daemon sets it up (a sandbox uid, its own network and mount namespaces, a tmpfs of
`--quota-mb` per evaluation). Each stage's function is timed where it is called (a stage inside
another is also counted in the outer one). The compiles are found in the build cache (the op is
built once first); the case data too, unless `--new-seeds` gives every evaluation a seed of its
own (as `fresh_cpu.py` does to dodge the daemon's run cache: then inputs and references are
generated each time); `--fresh` gives every evaluation a unique comment in its tiling and kernel
sources, so both compile, as a search policy's new candidates do. Every sandboxed command (each
compile step, each harness run) is a row of its own; the compiles of one evaluation run
concurrently, so a row also counts what another compile spent meanwhile unless `--serial` runs
them one at a time. Then the sandbox's fixed costs: a trivial command (`/bin/true`) through
`sandbox.run` without and with the sandbox identity, and with it in a compile's filesystem view
(build.view: the toolchain, our headers, the runtime's cache entry, its directory), `kill_all`
with nothing left to kill, and a tmpfs mount, write and unmount.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import json
import os
import resource
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable
from concurrent import futures
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon import evaluation, references, sandbox, source_policy, zygote
from npu_daemon.backends import base
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import backend as sim_backend
from npu_daemon.backends.sim import case_data
from npu_daemon.main import sandbox_access
from npu_daemon.service import workers

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"
SANDBOX_UID = 60000 + 64 * 40  # a block of its own, apart from a running daemon's default

spent: collections.Counter[str] = collections.Counter()


def cpu_s() -> float:
    """This process, the children it waited for, and the commands its fork servers ran."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime + zygote.cpu_s()


def timed(owner: object, name: str, label: str) -> None:
    """Count the CPU of every call of owner.name under `label`."""
    fn = getattr(owner, name)

    @functools.wraps(fn)
    def counted(*args, **kwargs):
        start = cpu_s()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] += cpu_s() - start

    setattr(owner, name, counted)


def timed_context(owner: object, name: str, label: str) -> None:
    """Count a context manager's entry and exit apart."""
    fn = getattr(owner, name)

    @contextlib.contextmanager
    def counted(*args, **kwargs):
        start = cpu_s()
        manager = fn(*args, **kwargs)
        value = manager.__enter__()
        spent[f"{label} (enter)"] += cpu_s() - start
        try:
            yield value
        finally:
            start = cpu_s()
            manager.__exit__(None, None, None)
            spent[f"{label} (exit)"] += cpu_s() - start

    setattr(owner, name, counted)


def per_call_ms(fn: Callable[[], object], n: int) -> dict[str, float]:
    own_0 = resource.getrusage(resource.RUSAGE_SELF)
    waited_0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(n):
        fn()
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "self_ms": round(
            1e3 * (own.ru_utime + own.ru_stime - own_0.ru_utime - own_0.ru_stime) / n, 2
        ),
        "children_ms": round(
            1e3 * (waited.ru_utime + waited.ru_stime - waited_0.ru_utime - waited_0.ru_stime) / n, 2
        ),
    }


def command_label(cmd: list[str]) -> str:
    """`command: PROGRAM STEP` of a sandboxed command (g++ -E, clang++ -S, the harness...)."""
    steps = ("-E", "-S", "-c", "-shared", "--precompile")
    step = next((f for f in cmd[1:] if f in steps), "")
    return f"command: {Path(cmd[0]).name} {step}".rstrip()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--op", default="level1/add")
    ap.add_argument("--new-seeds", action="store_true")
    ap.add_argument("--fresh", action="store_true", help="every candidate compiles")
    ap.add_argument("--backend", default="sim", choices=("sim", "sim-guest"), help="the engine")
    ap.add_argument("--serial", action="store_true", help="compiles one at a time (exact rows)")
    ap.add_argument("--quota-mb", type=int, default=256)
    args = ap.parse_args()
    backend = base.get_backend(args.backend)
    backend.prepare()
    root = Path(tempfile.mkdtemp(prefix="fresh-breakdown-"))
    root.chmod(0o711)
    probe = root / "probe"
    probe.mkdir()
    sandbox_ms = {
        "command, no sandbox identity": per_call_ms(
            lambda: sandbox.run(["/bin/true"], probe, 10, sandbox.Limits()), 30
        )
    }
    identity = None
    if os.geteuid() == 0:
        access = sandbox_access("sim")
        users = None
        with contextlib.suppress(workers.SandboxUnavailable):  # then timed without it
            users = workers.prepare_sandbox(
                SANDBOX_UID, 1, access.read, access.write, access.unlisted
            )
        if users is not None:
            identity = users.identity(0)
            sandbox.configure(identity)
            sandbox.isolate_network()
            sandbox.isolate_mounts()
    if identity is not None:
        sandbox_ms["command, sandboxed"] = per_call_ms(
            lambda: sandbox.run(["/bin/true"], probe, 10, sandbox.Limits()), 30
        )
        compile_view = build.view(probe, build.ensure_runtime().root)
        sandbox_ms["command, sandboxed with view"] = per_call_ms(
            lambda: sandbox.run(["/bin/true"], probe, 10, sandbox.Limits(), view=compile_view), 30
        )
        sandbox_ms["kill_all, nothing left"] = per_call_ms(
            lambda: sandbox.kill_all(identity.uid), 30
        )

        def quota() -> None:
            work = Path(tempfile.mkdtemp(dir=root))
            os.chown(work, identity.uid, identity.gid)
            with sandbox.disk_quota(work, args.quota_mb, identity):
                (work / "file").write_bytes(b"x")
            shutil.rmtree(work)

        sandbox_ms["tmpfs mount, write, unmount"] = per_call_ms(quota, 30)

    timed(source_policy, "check_package", "source policy (raw files)")
    timed(source_policy, "check_preprocessed", "source policy (preprocessed tokens)")
    timed(references, "trusted_package", "daemon's suite package")
    timed(base.Backend, "evaluate", "backend.evaluate")
    timed(sim_backend.SimBackend, "_build", "build (cached objects unless --fresh)")
    timed(sim_backend.SimBackend, "_run_case", "cases (all of each case's work)")
    timed_context(sim_backend.case_data, "case_data", "case inputs")
    timed(case_data.CaseData, "reference", "case reference outputs")
    run = sandbox.run

    def labelled(cmd: list[str], *a, **k):  # each command its own row: compiles and harness runs
        start = cpu_s()
        try:
            return run(cmd, *a, **k)
        finally:
            spent[command_label(cmd)] += cpu_s() - start

    sandbox.run = labelled
    if args.serial:
        serial = futures.ThreadPoolExecutor(max_workers=1)
        sim_backend._compiles = lambda: serial
    timed(sim_backend, "check_outputs", "output check")
    timed(sandbox, "kill_all", "kill_all")
    timed_context(sandbox, "disk_quota", "tmpfs")

    pkg = load_package(SUITE / args.op)
    stages = [Stage.COMPILE, Stage.CHECK, Stage.TIME]

    def evaluate(seed: int):
        candidate = pkg
        if args.fresh:
            mark = f"\n// {uuid.uuid4()}\n"
            candidate = pkg.with_sources(pkg.tiling_source + mark, pkg.kernel_source + mark)
        request = EvalRequest(run_id="breakdown", package=candidate, stages=stages, seed=seed)
        result = evaluation.evaluate(backend, request, root, args.quota_mb)
        assert result.status is Status.OK, result.message
        return result

    evaluate(0)  # builds the objects and the case data of seed 0
    spent.clear()
    start, wall_0 = cpu_s(), time.monotonic()
    for _ in range(args.n):
        evaluate(int.from_bytes(os.urandom(4)) if args.new_seeds else 0)
    total = cpu_s() - start
    shutil.rmtree(root, ignore_errors=True)
    print(
        json.dumps(
            {
                "op": args.op,
                "n": args.n,
                "backend": args.backend,
                "new_seeds": args.new_seeds,
                "fresh": args.fresh,
                "sandboxed": identity is not None,
                "cpu_ms_per_eval": round(1e3 * total / args.n, 1),
                "wall_ms_per_eval": round(1e3 * (time.monotonic() - wall_0) / args.n, 1),
                "stages_cpu_ms_per_eval": {
                    k: round(1e3 * v / args.n, 1) for k, v in spent.most_common()
                },
                "sandbox_cpu_ms_per_call": sandbox_ms,
                "load_average": os.getloadavg(),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
