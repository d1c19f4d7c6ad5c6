"""How much memory bytes on their way in make a daemon take (docs/daemon.md, Architecture).

Starts a daemon (the tree on PYTHONPATH; one worker; its default 256 MiB request-memory bound
unless `--max-queue-bytes` is given), then, from raw ZMTP connections on 127.0.0.1:

- `frames`: twenty connections each send 14 MiB of a frame announced as 16 MiB and hold;
- `parts`: one connection sends 300 parts of 1 MiB of a message that never ends.

Prints the daemon's resident memory growth (VmRSS, MiB) 2 s after each, and whether it still
answers. Each attack can cost the daemon at most about 300 MiB.

    PYTHONPATH=. python benchmarks/request_memory.py [--max-queue-bytes N]
"""

from __future__ import annotations

import argparse
import socket
import time
from pathlib import Path

from ascend_gym.client import DaemonClient, LocalDaemon
from tests.daemon import zmtp


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise KeyError("VmRSS")


def attack(port: int, conns: int, chunks: list[bytes]) -> list[socket.socket]:
    sockets = [zmtp.connect(port) for _ in range(conns)]
    zmtp.send_all(sockets, chunks)
    return sockets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-queue-bytes", type=int, default=None)
    args = parser.parse_args()
    extra = ["--max-queue-bytes", str(args.max_queue_bytes)] if args.max_queue_bytes else []
    attacks = {
        "frames": (20, [zmtp.frame(16 << 20, False) + b"x" * (14 << 20)]),
        "parts": (1, [zmtp.frame(1 << 20, True) + b"x" * (1 << 20)] * 300),
    }
    for name, (conns, chunks) in attacks.items():
        with LocalDaemon(workers=1, extra_args=extra) as d:
            client = DaemonClient(d.address, heartbeat_s=1.0)
            pid, port = d.process.pid, int(d.address.rsplit(":", 1)[1])
            client.stats()
            before = rss_mib(pid)
            sockets = attack(port, conns, chunks)
            time.sleep(2)
            grown = rss_mib(pid) - before
            alive = client.stats().workers_alive == 1
            for s in sockets:
                s.close()
            client.close()
            print(f"{name}: the daemon grew by {grown:.0f} MiB; answers: {alive}")


if __name__ == "__main__":
    main()
