"""The bytes clients have sent that the server has not read yet, bounded.

libzmq buffers what arrives on each connection in its own memory before the server sees a
message: a frame up to MAXMSGSIZE while it is incomplete, and a message whose parts never end
without any bound (its high-water mark counts whole messages only). So the server counts, per TCP
connection, the bytes the kernel received on it (TCP_INFO) less the bytes of the messages it read
from it (each message names its connection: ZMQ_SRCFD), and cuts (shutdown: libzmq frees what
the connection held, the client reconnects) a connection that holds more than two whole messages,
then the largest holders until all together fit the room the queue leaves in the request-memory
bound. Connections other than TCP (ipc) are local and not counted.

Connections themselves are bounded too: each holds a descriptor of the daemon's (and costs the
main loop a count every 20 ms), and idle ones that finished ZeroMQ's handshake stay open for
good, so a client could hold every descriptor the daemon may open and no other client could
connect. Past `MAX_CONNECTIONS` (or a quarter of the descriptor limit, whichever is lower: the
rest is the daemon's own) the connection whose last message is oldest is cut.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import resource
import socket
import struct
import time

import zmq
from zmq.utils.monitor import recv_monitor_message

log = logging.getLogger("npu_daemon")

_libc = ctypes.CDLL(None, use_errno=True)
_BYTES_RECEIVED = 128  # offset of tcpi_bytes_received in Linux's struct tcp_info (since 4.1)
HANDSHAKE_BYTES = 4096  # a connection's greeting and handshake (CURVE's included)
FRAME_BYTES = 64  # a frame's header on the wire (CURVE: the command, nonce and MAC too)
EVERY_S = 0.02  # the kernel's counts are read at most this often
MAX_CONNECTIONS = 256  # open at once, all clients together


def bytes_received(fd: int) -> int | None:
    """The bytes the kernel has received on TCP socket `fd`; None if it is not one."""
    buf, size = ctypes.create_string_buffer(256), ctypes.c_uint32(256)
    ok = _libc.getsockopt(fd, socket.IPPROTO_TCP, socket.TCP_INFO, buf, ctypes.byref(size)) == 0
    return struct.unpack_from("Q", buf.raw, _BYTES_RECEIVED)[0] if ok and size.value > 135 else None


def max_connections() -> int:
    """Connections open at once: `MAX_CONNECTIONS`, or a quarter of the descriptors the daemon
    may open (the limit read now: it can be changed while the daemon runs)."""
    return min(MAX_CONNECTIONS, max(8, resource.getrlimit(resource.RLIMIT_NOFILE)[0] // 4))


class InFlight:
    """Per connection of `router`: the wire bytes of the messages the server read from it."""

    def __init__(self, router: zmq.Socket, max_message_bytes: int):
        events = zmq.EVENT_ACCEPTED | zmq.EVENT_DISCONNECTED | zmq.EVENT_CLOSED
        self.monitor = router.get_monitor_socket(events)
        self.max_message_bytes = max_message_bytes
        self.read_bytes: dict[int, int] = {}  # fd -> wire bytes of the messages read from it
        self.last_used: dict[int, float] = {}  # fd -> when it was accepted or last sent a message
        self.held = 0  # all connections together, at the last count
        self.cut = 0  # connections cut so far
        self._next = 0.0

    def close(self) -> None:
        self.monitor.close(linger=0)

    def connections(self) -> None:
        """Follow connections accepted and gone (the monitor's events; a descriptor is reused)."""
        while self.monitor.poll(0):
            event = recv_monitor_message(self.monitor)
            fd = int(event["value"])
            if event["event"] == zmq.EVENT_ACCEPTED:
                self.read_bytes[fd] = 0
                self.last_used[fd] = time.monotonic()
            else:
                self.read_bytes.pop(fd, None)
                self.last_used.pop(fd, None)
        while len(self.last_used) > max_connections():
            fd = min(self.last_used, key=self.last_used.__getitem__)
            self.last_used.pop(fd)
            self.read_bytes.pop(fd, None)
            self.cut += 1
            shutdown(fd)  # not logged: a line per connection would be the client's to multiply

    def read(self, frames: list[zmq.Frame]) -> None:
        """A message the server read (a ROUTER's: its first frame, the peer's id, is not wired)."""
        fd = frames[-1].get(zmq.SRCFD)
        if fd in self.read_bytes:
            self.last_used[fd] = time.monotonic()
            wired = frames[1:]
            self.read_bytes[fd] += sum(len(f) for f in wired) + FRAME_BYTES * len(wired)

    def bound(self, room: int) -> None:
        """Cut what holds more than two messages' worth, then the largest holders until the
        bytes held fit `room` (the request-memory bound less what the queue holds)."""
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + EVERY_S
        held = {}
        for fd, read in self.read_bytes.items():
            received = bytes_received(fd)
            if received is not None:
                held[fd] = max(0, received - read - HANDSHAKE_BYTES)
        for fd in [fd for fd, n in held.items() if n > 2 * self.max_message_bytes]:
            self._cut(fd, held.pop(fd), "more than two messages")
        while held and sum(held.values()) > max(room, 0):
            fd = max(held, key=held.__getitem__)
            self._cut(fd, held.pop(fd), "the request-memory bound")
        self.held = sum(held.values())

    def _cut(self, fd: int, held: int, why: str) -> None:
        log.warning("cut a connection holding %d bytes not yet read (%s)", held, why)
        self.read_bytes.pop(fd, None)
        self.last_used.pop(fd, None)
        self.cut += 1
        shutdown(fd)


def shutdown(fd: int) -> None:
    """Cut connection `fd`: libzmq reads its end, frees what the connection held and closes it
    (an honest client reconnects and resends)."""
    with contextlib.suppress(OSError):  # gone meanwhile
        dup = socket.socket(fileno=os.dup(fd))
        dup.shutdown(socket.SHUT_RDWR)
        dup.close()
