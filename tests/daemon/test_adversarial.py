"""Hostile kernels, each contained while the daemon keeps serving.

The daemon here runs without the source policy (`--source-policy off`), so these kernels reach
the candidate process's syscall filter and the sandbox behind it. Every kernel is safe even if
containment failed: the fork bomb forks at most 200 sleeping children, the memory hog asks for
50 GB once and never touches it, the network probe targets 127.0.0.1 only, the printer stops at
1 GB.
"""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import pytest

from ascend_core.protocol import Status
from ascend_gym.client import LocalDaemon

from .conftest import add_variant, sandbox_uids, small_request, uid_processes

HEADERS = "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <cerrno>\n#include <unistd.h>\n"


@pytest.fixture()
def daemon(unchecked_native: LocalDaemon) -> LocalDaemon:
    """This module's daemon: the source policy off, so the kernels below reach the deeper layers."""
    # Native engine: its syscall filter and sandbox are under test (the guest's own: test_guest_boundary.py).
    return unchecked_native


@pytest.fixture(autouse=True)
def still_serving(daemon, client):
    """After each hostile kernel: the daemon is alive, answers, and no sandboxed process is left."""
    uids = sandbox_uids(client)
    if not uids:
        pytest.skip(
            "containment needs a root daemon with its sandbox users (ASCEND_GYM_CACHE world-traversable)"
        )
    yield
    assert daemon.process.poll() is None
    assert client.health().ok
    assert uid_processes(uids) == []


def test_infinite_loop_is_run_timeout(tmp_path, client):
    pkg = add_variant(
        tmp_path, "    volatile unsigned long spin = 0; for (;;) { spin = spin + 1; }"
    )
    result = client.evaluate(small_request(pkg, run_id="adv-loop", run_s=2.0))
    assert result.status is Status.RUN_TIMEOUT, result.message
    assert result.cost.run_s < 10


def test_fork_bomb_ends_at_the_first_fork(tmp_path, client):
    body = """
    int made = 0;
    for (; made < 200; ++made) {
      pid_t pid = fork();
      if (pid == 0) { setsid(); sleep(60); _exit(0); }  // setsid: try to escape the process group too
      if (pid < 0) break;
    }
    fprintf(stderr, "PROBE forked %d\\n", made);
    abort();"""
    result = client.evaluate(small_request(add_variant(tmp_path, body, HEADERS), run_id="adv-fork"))
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "forbidden system call 56 (clone" in result.message, result.message
    assert "PROBE forked" not in result.log_tail


def test_50gb_allocation_fails(tmp_path, client):
    body = """
    void* p = malloc(50ULL << 30);
    fprintf(stderr, "PROBE malloc 50GB -> %s\\n", p ? "granted" : "refused");
    abort();"""
    result = client.evaluate(small_request(add_variant(tmp_path, body, HEADERS), run_id="adv-mem"))
    assert result.status is Status.RUNTIME_ERROR
    assert "PROBE malloc 50GB -> refused" in result.log_tail, result.log_tail


def test_opening_a_file_to_write_ends_the_launch(tmp_path, client):
    """Anywhere: its own directory, the work root, /etc, /tmp, /dev/shm. (Were the filter gone,
    the uid and the read-only mount namespace would still deny all but its own directory.)"""
    probe = f"npu_daemon_probe_{uuid.uuid4().hex}"
    targets = ["/tmp/" + probe, "/dev/shm/" + probe, "/etc/" + probe, "../../" + probe, "own"]
    body = "".join(
        f"""
    {{ FILE* f = fopen("{t}", "w");
      fprintf(stderr, "PROBE write {t} -> %s\\n", f ? "written" : strerror(errno)); }}"""
        for t in targets
    )
    result = client.evaluate(
        small_request(add_variant(tmp_path, body + "\n    abort();", HEADERS), run_id="adv-write")
    )
    assert "forbidden system call 257 (openat" in result.message, result.message
    assert "PROBE write" not in result.log_tail
    assert not Path("/tmp", probe).exists() and not Path("/dev/shm", probe).exists()


def test_network_is_a_forbidden_system_call(tmp_path, client):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    body = f"""
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{{}};
    addr.sin_family = AF_INET;
    addr.sin_port = htons({port});
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = fd < 0 ? -1 : connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    fprintf(stderr, "PROBE connect 127.0.0.1:{port} -> %d %s\\n", rc, rc ? strerror(errno) : "connected");
    abort();"""
    includes = (
        HEADERS + "#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n"
    )
    result = client.evaluate(small_request(add_variant(tmp_path, body, includes), run_id="adv-net"))
    assert "forbidden system call 41 (socket" in result.message, result.message
    assert "PROBE connect" not in result.log_tail
    with pytest.raises(socket.timeout):
        listener.accept()
    listener.close()


def test_printing_1gb_is_cut_by_the_file_size_limit(tmp_path, client):
    body = """
    static char line[1 << 20];
    memset(line, 'x', sizeof line);
    for (int i = 0; i < 1024; ++i) fwrite(line, 1, sizeof line, stdout);
    fprintf(stderr, "PROBE printed 1 GB\\n");"""
    result = client.evaluate(
        small_request(add_variant(tmp_path, body, HEADERS), run_id="adv-print")
    )
    assert result.status is Status.RUNTIME_ERROR
    assert "SIGXFSZ" in result.message, result.message
    assert "PROBE printed 1 GB" not in result.log_tail
    assert len(result.log_tail) <= 4000
