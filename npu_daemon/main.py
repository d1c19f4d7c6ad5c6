"""Start a daemon: `ascend-gym daemon --backend sim --bind tcp://127.0.0.1:5555`."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import sys
from urllib.parse import urlparse

from npu_daemon.backends.base import get_backend
from npu_daemon.runtime.server import Server


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", default="sim", choices=["sim"], help="evaluation backend")
    parser.add_argument("--bind", default="tcp://127.0.0.1:5555", help="ZeroMQ endpoint; port * picks a free one")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="concurrent evaluations")
    parser.add_argument("--max-queue", type=int, default=64, help="pending requests before BUSY")
    parser.add_argument("--insecure", action="store_true", help="allow a non-loopback bind without CURVE keys")


def is_loopback(endpoint: str) -> bool:
    host = urlparse(endpoint).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s npu_daemon %(levelname)s %(message)s")
    if args.bind.startswith("tcp://") and not is_loopback(args.bind) and not args.insecure:
        print(f"refusing to bind {args.bind} beyond loopback without CURVE keys (pass --insecure to override)", file=sys.stderr)
        return 2
    backend = get_backend(args.backend)
    backend.prepare()
    server = Server(backend, args.bind, workers=args.workers, max_queue=args.max_queue)
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    signal.signal(signal.SIGINT, lambda *_: server.stop())
    print(f"READY {server.endpoint}", flush=True)  # the embedded-daemon launcher waits for this line
    server.serve_forever()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="npu_daemon", description=__doc__)
    configure(parser)
    return run(parser.parse_args(argv))
