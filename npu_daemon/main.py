"""Start a daemon: `npu-daemon --backend sim --bind tcp://127.0.0.1:5555` (the same as
`ascend-gym daemon`; `npu-daemon` needs only the base install, no Gymnasium, Ray or torch)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import stat
import sys
from pathlib import Path
from urllib.parse import urlparse

import zmq
from pydantic import BaseModel

from ascend_core.protocol import DEFAULT_BACKEND
from npu_daemon.backends.base import BACKENDS, get_backend
from npu_daemon.service.keys import load_server_keys
from npu_daemon.service.server import Server, StateDirInUse, default_state_dir
from npu_daemon.service.workers import SandboxUnavailable, SandboxUsers, prepare_sandbox

SANDBOX_UID = 64000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend", default=DEFAULT_BACKEND, choices=BACKENDS, help="evaluation backend"
    )
    parser.add_argument(
        "--bind", default="tcp://127.0.0.1:5555", help="ZeroMQ endpoint; port * picks a free one"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes (concurrent evaluations; default: one a core, on the sim backends "
        "no more than leave each a share of memory the suite's largest launch runs in)",
    )
    parser.add_argument("--max-queue", type=int, default=64, help="waiting requests before BUSY")
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=None,
        help="the machine's memory evaluations may hold, in MiB (default: its physical memory); "
        "each sandboxed process gets (MEMORY - 2048) / (2 x WORKERS) of address space",
    )
    parser.add_argument(
        "--keys", type=Path, help="CURVE key directory from `ascend-gym daemon keygen DIR`"
    )
    parser.add_argument(
        "--insecure", action="store_true", help="allow a non-loopback bind without CURVE keys"
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help=f"cache, ledger and request log (SQLite); default {default_state_dir()}",
    )
    parser.add_argument(
        "--cache-entries", type=int, default=100_000, help="results kept in the cache"
    )
    parser.add_argument(
        "--work-dir",
        type=Path,
        default=None,
        help="where evaluations' throwaway directories go (default: the system temp dir)",
    )
    parser.add_argument(
        "--source-policy",
        choices=("enforce", "off"),
        default="enforce",
        help="reject candidate sources that reach past the AscendC API (off: containment tests)",
    )
    parser.add_argument(
        "--case-secret",
        type=bytes.fromhex,
        default=None,
        metavar="HEX",
        help="the secret case inputs are drawn with (default: fresh at each start; a stopped "
        "daemon reports its own in its log and STATE_DIR/case_secrets.jsonl)",
    )
    parser.add_argument(
        "--require-run-tokens",
        action="store_true",
        help="serve evaluations only for runs opened with a budget (open_run) and their token: "
        "the default; overrides --allow-unopened-runs",
    )
    parser.add_argument(
        "--allow-unopened-runs",
        action="store_true",
        help="(loopback only) also serve runs never opened, unbudgeted: experiments by hand",
    )
    parser.add_argument(
        "--max-open-runs",
        type=int,
        default=100_000,
        help="runs open at once; past it, spent and idle runs are dropped, else open_run is BUSY",
    )
    parser.add_argument(
        "--max-queue-bytes",
        type=int,
        default=256 * 1024 * 1024,
        help="bytes of waiting requests before new ones are answered BUSY",
    )
    parser.add_argument(
        "--disk-quota-mb",
        type=int,
        default=512,
        help="a root daemon mounts a tmpfs of this many MiB on each evaluation's directory (0: none)",
    )
    parser.add_argument(
        "--sandbox-uid",
        type=int,
        default=SANDBOX_UID,
        help="a root daemon runs worker i's candidates as uid B+i, gid N, B the first free block of 64 "
        "uids from N (0: as the daemon's own user)",
    )


def is_loopback(endpoint: str) -> bool:
    if endpoint.startswith(("ipc://", "inproc://")):
        return True
    host = urlparse(endpoint).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tokens_required(args: argparse.Namespace) -> bool:
    """Every evaluation spends a budget opened for it (a throw-away run id would dodge every
    budget): only a loopback daemon started with --allow-unopened-runs serves runs never opened."""
    return args.require_run_tokens or not (args.allow_unopened_runs and is_loopback(args.bind))


class SandboxAccess(BaseModel):
    """What a backend's sandboxed commands need outside their own directory."""

    read: list[Path]  # files they use: must be traversable by other users
    write: list[Path] = []  # the build cache they write artefacts into
    unlisted: list[
        Path
    ] = []  # may open known paths in, but not list (entry names must not be discoverable)
    groups: list[int] = []  # supplementary groups of the sandbox users (device nodes)


def sandbox_access(backend: str) -> SandboxAccess:
    """The sim: its headers and build cache (the case cache unlisted); its compiles write only their
    own directories (each sees no more than build.view). The cann backend builds the host
    tiling program the same way, and its CMake builds, device app and msprof read the CANN toolkit
    and the built apps (each build writes only its own project directory, each run its case
    directory, msprof's output included) and open the NPU's device nodes."""
    from npu_daemon.backends.common import build

    sim_root = build.cache_root()
    if backend in ("sim", "sim-guest"):
        return SandboxAccess(
            read=[build.INCLUDE_DIR, build.HOST_INCLUDE_DIR, sim_root, build.GUEST_INCLUDE],
            unlisted=[sim_root / "cases"],
        )
    from npu_daemon.backends.cann import device, tiling
    from npu_daemon.backends.cann.toolkit import Toolkit

    return SandboxAccess(
        read=[
            build.INCLUDE_DIR,
            build.HOST_INCLUDE_DIR,
            sim_root,
            Toolkit.discover().home,
            tiling.cache_root(),
        ],
        write=[sim_root / "objects"],
        groups=device.node_groups(),
    )


def sandbox_users(args: argparse.Namespace) -> SandboxUsers | None:
    """Who candidates run as (None: the daemon's own user; see npu_daemon/sandbox.py)."""
    if args.sandbox_uid <= 0:
        return None
    access = sandbox_access(args.backend)
    return prepare_sandbox(
        args.sandbox_uid, args.workers, access.read, access.write, access.unlisted, access.groups
    )


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s npu_daemon %(levelname)s %(message)s"
    )
    if "://" not in args.bind:
        print(
            f"npu-daemon: --bind {args.bind!r} is not a ZeroMQ endpoint: give e.g. "
            "tcp://127.0.0.1:5555",
            file=sys.stderr,
        )
        return 2
    if not is_loopback(args.bind) and args.keys is None and not args.insecure:
        print(
            f"refusing to bind {args.bind} beyond loopback without CURVE keys (--keys DIR, or --insecure to override)",
            file=sys.stderr,
        )
        return 2
    if args.workers is not None and args.workers < 1:
        print(f"npu-daemon: --workers {args.workers}: at least one", file=sys.stderr)
        return 2
    from npu_daemon.backends.common import build

    cores, bound_mb = os.cpu_count() or 1, None
    if args.backend in ("sim", "sim-guest") and not build.SANITIZE:  # ASan's shadow: no bound
        from npu_daemon.backends.sim import backend as sim_backend

        memory_mb = args.memory_mb or sim_backend.physical_mb()
        args.workers = args.workers or sim_backend.default_workers(memory_mb, cores)
        bound_mb = sim_backend.process_bound_mb(memory_mb, args.workers)
        if bound_mb < sim_backend.HARNESS_MIN_MB:
            print(
                f"refusing to start: {args.workers} workers on {memory_mb} MiB leave each harness "
                f"process {bound_mb} MiB, below the {sim_backend.HARNESS_MIN_MB} MiB "
                "the smallest case needs (fewer --workers, or more --memory-mb)",
                file=sys.stderr,
            )
            return 2
    args.workers = args.workers or cores
    keys = load_server_keys(args.keys) if args.keys else None
    try:  # before the backend builds anything: a daemon that cannot contain candidates stops here
        users = sandbox_users(args)
    except SandboxUnavailable as e:
        print(
            f"refusing to start: candidates would run as root: {e} "
            "(--sandbox-uid 0 runs them as root on purpose)",
            file=sys.stderr,
        )
        return 2
    backend = get_backend(args.backend)
    backend.memory_bound_mb = bound_mb
    backend.prepare()
    server: Server | None = None
    stop_requested = False

    def stop(*_: object) -> None:
        nonlocal stop_requested
        stop_requested = True
        if server is not None:
            server.stop()

    # Before the server makes its work root: a stop that arrives while it starts (its workers
    # spawning) ends in its cleanup, not in the default action's exit, which left the root behind.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server = Server(
            backend,
            args.bind,
            workers=args.workers,
            max_queue=args.max_queue,
            state_dir=args.state_dir,
            keys=keys,
            sandbox=users,
            cache_entries=args.cache_entries,
            workdir=args.work_dir,
            source_policy=args.source_policy == "enforce",
            require_tokens=tokens_required(args),
            max_open_runs=args.max_open_runs,
            max_queue_bytes=args.max_queue_bytes,
            disk_quota_mb=args.disk_quota_mb,
            case_secret=args.case_secret,
        )
    except StateDirInUse as e:
        print(f"npu-daemon: {e}", file=sys.stderr)
        return 2
    except zmq.ZMQError as e:  # the port is taken
        print(f"npu-daemon: cannot bind {args.bind}: {e.strerror}", file=sys.stderr)
        return 2
    if stop_requested:  # it serves no request: queued ones are refused, then it stops
        server.stop()
    print(
        f"READY {server.endpoint}", flush=True
    )  # the embedded-daemon launcher waits for this line
    if stat.S_ISFIFO(
        os.fstat(sys.stdout.fileno()).st_mode
    ):  # a terminal or a file has no reader to lose
        server.stop_with_reader(sys.stdout.fileno())
    server.serve_forever()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="npu-daemon", description=__doc__)
    configure(parser)
    return run(parser.parse_args(argv))
