"""A raw ZMTP 3.0 client: what a ZeroMQ library sends, minus its manners (an incomplete frame
held open, a message whose parts never end). For the service's bound tests and
benchmarks/request_memory.py; it talks to 127.0.0.1 only."""

from __future__ import annotations

import contextlib
import select
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
    """Each connection sends its chunks, on threads; a connection the daemon cut stops. A cut
    (shutdown) does not always close the daemon's end at once: it stops reading it, and a plain
    sendall would wait on a full window until the test gave up on it. The daemon's FIN says so."""

    def send(s: socket.socket) -> None:
        s.setblocking(False)
        poller = select.poll()
        poller.register(s, select.POLLIN | select.POLLOUT)
        with contextlib.suppress(OSError):
            for chunk in chunks:
                view = memoryview(chunk)
                while view:
                    ready = dict(poller.poll())[s.fileno()]
                    if ready & (select.POLLERR | select.POLLHUP):  # reset or closed: cut
                        return
                    if ready & select.POLLIN and not s.recv(1 << 16):  # the daemon's FIN: cut
                        return
                    if ready & select.POLLOUT:
                        with contextlib.suppress(BlockingIOError):
                            view = view[s.send(view) :]

    threads = [threading.Thread(target=send, args=(s,)) for s in conns]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
