"""How much memory bytes on their way in make a daemon take (docs/daemon.md, Architecture).

Starts a daemon (the tree on PYTHONPATH; one worker; its default 256 MiB request-memory bound
unless `--max-queue-bytes` is given), then, from raw ZMTP connections on 127.0.0.1:

- `frames`: twenty connections each send 14 MiB of a frame announced as 16 MiB and hold;
- `parts`: one connection sends 300 parts of 1 MiB of a message that never ends;
- `requests`: twenty clients each send a whole request of 14 MiB (level1/add with a 14 MiB
  comment in its kernel) at once.

Prints the daemon's resident memory growth 2 s after each (VmRSS, MiB) and its peak growth
(VmHWM), and whether it still answers. Each attack can cost the daemon at most about 300 MiB.

    PYTHONPATH=. python benchmarks/request_memory.py [--max-queue-bytes N]
"""

from __future__ import annotations

import argparse
import socket
import time
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest
from ascend_gym.client import DaemonClient, LocalDaemon
from tests.daemon import zmtp

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def mib(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def attack(port: int, conns: int, chunks: list[bytes]) -> list[socket.socket]:
    sockets = [zmtp.connect(port) for _ in range(conns)]
    zmtp.send_all(sockets, chunks)
    return sockets


def big_request() -> bytes:
    """A whole EvalRequest of about 14 MiB on the wire, as a client sends it (empty frame, JSON)."""
    pkg = load_package(SUITE / "level1" / "add")
    kernel = pkg.files["op_kernel/add.cpp"] + "\n// " + "x" * (14 << 20) + "\n"
    request = EvalRequest(run_id="big", package=pkg.with_sources(kernel=kernel))
    return request.model_dump_json().encode()


def requests(port: int, conns: int) -> list[socket.socket]:
    """`conns` connections each sending one whole request (two frames: empty, the JSON)."""
    payload = big_request()
    return attack(port, conns, [zmtp.frame(0, True) + zmtp.frame(len(payload), False) + payload])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-queue-bytes", type=int, default=None)
    args = parser.parse_args()
    extra = ["--max-queue-bytes", str(args.max_queue_bytes)] if args.max_queue_bytes else []
    attacks = {
        "frames": lambda port: attack(port, 20, [zmtp.frame(16 << 20, False) + b"x" * (14 << 20)]),
        "parts": lambda port: attack(port, 1, [zmtp.frame(1 << 20, True) + b"x" * (1 << 20)] * 300),
        "requests": lambda port: requests(port, 20),
    }
    for name, send in attacks.items():
        with LocalDaemon(workers=1, extra_args=extra) as d:
            client = DaemonClient(d.address, heartbeat_s=1.0)
            pid, port = d.process.pid, int(d.address.rsplit(":", 1)[1])
            client.stats()
            before, peak = mib(pid), mib(pid, "VmHWM")
            sockets = send(port)
            time.sleep(2)
            grown, peaked = mib(pid) - before, mib(pid, "VmHWM") - peak
            alive = client.stats().workers_alive == 1
            for s in sockets:
                s.close()
            client.close()
            print(
                f"{name}: the daemon grew by {grown:.0f} MiB (peak +{peaked:.0f} MiB); "
                f"answers: {alive}"
            )


if __name__ == "__main__":
    main()
