"""A raw ZMTP 3.0 client: what a ZeroMQ library sends, minus its manners (an incomplete frame
held open, a message whose parts never end). For the service's bound tests and
benchmarks/request_memory.py; it talks to 127.0.0.1 only."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading


def connect(port: int) -> socket.socket:
    """A NULL-mechanism connection to 127.0.0.1:port announcing a DEALER."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"\xff" + b"\0" * 8 + b"\x7f\x03\x00" + b"NULL".ljust(20, b"\0") + b"\0" * 32)
    got = b""
    while len(got) < 64:
        got += s.recv(64 - len(got))
    body = b"\x05READY\x0bSocket-Type" + struct.pack(">I", 6) + b"DEALER"
    s.sendall(bytes([0x04, len(body)]) + body)
    return s


def frame(size: int, more: bool) -> bytes:
    """A long frame's header announcing `size` bytes (`more`: another part follows)."""
    return bytes([0x02 | int(more)]) + struct.pack(">Q", size)


def send_all(conns: list[socket.socket], chunks: list[bytes]) -> None:
    """Each connection sends its chunks, on threads; a connection the daemon cut stops."""

    def send(s: socket.socket) -> None:
        with contextlib.suppress(OSError):
            for chunk in chunks:
                s.sendall(chunk)

    threads = [threading.Thread(target=send, args=(s,)) for s in conns]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
