"""Hostile kernels, each contained while the daemon keeps serving.

Every kernel is safe even if containment failed: the fork bomb forks at most 200 sleeping
children, the memory hog asks for 50 GB once and never touches it, the network probe targets
127.0.0.1 only, the printer stops at 1 GB.
"""

from __future__ import annotations

import socket
import threading
import uuid
from pathlib import Path

import pytest

from ascend_gym.protocol import Status

from .conftest import add_variant, sandbox_uids, small_request, uid_processes

HEADERS = "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <cerrno>\n#include <unistd.h>\n"


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


def test_fork_bomb_is_capped_by_the_process_limit(tmp_path, client):
    body = """
    int made = 0;
    for (; made < 200; ++made) {
      pid_t pid = fork();
      if (pid == 0) { setsid(); sleep(60); _exit(0); }  // setsid: try to escape the process group too
      if (pid < 0) { fprintf(stderr, "PROBE fork failed after %d: %s\\n", made, strerror(errno)); break; }
    }
    fprintf(stderr, "PROBE forked %d\\n", made);
    abort();"""
    result = client.evaluate(
        small_request(pkg := add_variant(tmp_path, body, HEADERS), run_id="adv-fork")
    )
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "PROBE fork failed after" in result.log_tail, result.log_tail
    made = int(result.log_tail.split("PROBE forked ")[1].split()[0])
    assert made < 200
    del pkg


def test_50gb_allocation_fails(tmp_path, client):
    body = """
    void* p = malloc(50ULL << 30);
    fprintf(stderr, "PROBE malloc 50GB -> %s\\n", p ? "granted" : "refused");
    abort();"""
    result = client.evaluate(small_request(add_variant(tmp_path, body, HEADERS), run_id="adv-mem"))
    assert result.status is Status.RUNTIME_ERROR
    assert "PROBE malloc 50GB -> refused" in result.log_tail, result.log_tail


def test_writes_outside_its_directory_are_denied(tmp_path, client):
    # Targets: the daemon's work root (the parent of every evaluation's directory), a root-owned
    # directory of the test, /etc, and world-writable /tmp and /dev/shm (read-only in the
    # candidate's mount namespace); the kernel's own directory is writable.
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o755)
    probe = f"npu_daemon_probe_{uuid.uuid4().hex}"
    targets = [
        "../../probe-escape",
        str(outside / "escape"),
        "/etc/" + probe,
        "/tmp/" + probe,
        "/dev/shm/" + probe,
        "own-file",
    ]
    body = "".join(
        f"""
    {{ FILE* f = fopen("{t}", "w");
      fprintf(stderr, "PROBE write {t} -> %s\\n", f ? "written" : strerror(errno)); if (f) fclose(f); }}"""
        for t in targets
    )
    result = client.evaluate(
        small_request(add_variant(tmp_path, body + "\n    abort();", HEADERS), run_id="adv-write")
    )
    log = result.log_tail
    for t in targets[:-1]:
        assert (
            f"PROBE write {t} -> Permission denied" in log
            or f"PROBE write {t} -> Read-only file system" in log
        ), log
    assert "PROBE write own-file -> written" in log
    assert not (outside / "escape").exists()
    assert not Path("/tmp", probe).exists() and not Path("/dev/shm", probe).exists()


def test_cannot_plant_artefacts_in_the_build_cache(tmp_path, client):
    """The build cache is writable by the compiler (it names its output there), not by the
    harness that runs candidate code: a kernel cannot plant or alter a cached artefact."""
    body = r"""
    char line[4096], dir[4096] = "";
    FILE* maps = fopen("/proc/self/maps", "r");
    while (fgets(line, sizeof line, maps)) {
      char* path = strstr(line, "/objects/kernel-");
      if (path) { while (path > line && path[-1] != ' ') --path; *strstr(path, "/objects/") = 0; strcpy(dir, path); break; }
    }
    fclose(maps);
    strcat(dir, "/objects/planted-by-candidate.so");
    FILE* f = fopen(dir, "w");
    fprintf(stderr, "PROBE plant %s -> %s\n", dir, f ? "written" : strerror(errno));
    abort();"""
    result = client.evaluate(
        small_request(add_variant(tmp_path, body, HEADERS), run_id="adv-plant")
    )
    assert "/objects/planted-by-candidate.so -> Read-only file system" in result.log_tail, (
        result.log_tail
    )
    planted = result.log_tail.split("PROBE plant ")[1].split(" -> ")[0]
    assert not Path(planted).exists()


def test_cannot_list_or_read_cached_case_data(tmp_path, client):
    """The sim backend may keep case inputs and reference outputs in its cache (`cases/`): a
    kernel can open the input files it is given, but cannot list the cache to find others."""
    body = r"""
    char line[4096], root[4096] = "";
    FILE* maps = fopen("/proc/self/maps", "r");
    while (fgets(line, sizeof line, maps)) {
      char* path = strstr(line, "/objects/kernel-");
      if (path) { while (path > line && path[-1] != ' ') --path; *strstr(path, "/objects/") = 0; strcpy(root, path); break; }
    }
    fclose(maps);
    strcat(root, "/cases");
    DIR* cases = opendir(root);
    fprintf(stderr, "PROBE list %s -> %s\n", root, cases ? "listed" : strerror(errno));
    for (dirent* e; cases && (e = readdir(cases));) {
      for (int i = 0; i < 4; ++i) {
        char path[8192]; snprintf(path, sizeof path, "%s/%s/out_%d.npy", root, e->d_name, i);
        FILE* f = fopen(path, "r");
        if (f) { fprintf(stderr, "PROBE read reference %s\n", path); fclose(f); }
      }
    }
    abort();"""
    result = client.evaluate(
        small_request(
            add_variant(tmp_path, body, HEADERS + "#include <dirent.h>\n"), run_id="adv-cases"
        )
    )
    assert "/cases -> Permission denied" in result.log_tail, result.log_tail
    assert "PROBE read reference" not in result.log_tail


def test_network_is_unreachable(tmp_path, client):
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
    assert f"PROBE connect 127.0.0.1:{port} -> -1 Network is unreachable" in result.log_tail, (
        result.log_tail
    )
    with pytest.raises(socket.timeout):
        listener.accept()
    listener.close()


def test_cannot_read_expected_outputs_or_other_evaluations(tmp_path, client, daemon):
    """A victim evaluation keeps a secret in its directory while a thief, on the other worker,
    looks for it: through the shared work root, /proc/*/cwd and its own case directory, where
    only its inputs, its outputs and the launch file exist (the reference is computed after the
    run, in the daemon, and never written)."""
    victim_body = """
    FILE* f = fopen("SECRET-victim.txt", "w"); fputs("expected: 42", f); fclose(f);
    sleep(6);"""
    thief_body = r"""
    char cwd[4096]; getcwd(cwd, sizeof cwd);
    fprintf(stderr, "PROBE cwd %s\n", cwd);
    for (const char* dir : {".", "..", "../.."}) {
      DIR* d = opendir(dir);
      if (!d) { fprintf(stderr, "PROBE list %s -> %s\n", dir, strerror(errno)); continue; }
      for (dirent* e; (e = readdir(d));) fprintf(stderr, "PROBE in %s: %s\n", dir, e->d_name);
      closedir(d);
    }
    DIR* proc = opendir("/proc");
    for (dirent* e; (e = readdir(proc));) {
      char path[512]; snprintf(path, sizeof path, "/proc/%s/cwd/SECRET-victim.txt", e->d_name);
      FILE* f = fopen(path, "r");
      if (f) { char buf[64] = {0}; fread(buf, 1, 63, f); fprintf(stderr, "PROBE stole %s: %s\n", path, buf); fclose(f); }
    }
    closedir(proc);
    abort();"""
    includes = HEADERS + "#include <dirent.h>\n"
    victim = small_request(add_variant(tmp_path / "v", victim_body, includes), run_id="adv-victim")
    outcome = {}
    thread = threading.Thread(
        target=lambda: outcome.setdefault("victim", _client(daemon).evaluate(victim))
    )
    thread.start()
    thief = client.evaluate(
        small_request(
            add_variant(tmp_path / "t", "    sleep(3);" + thief_body, includes), run_id="adv-thief"
        )
    )
    thread.join()
    log = thief.log_tail
    assert "PROBE cwd /" in log, log
    assert "PROBE stole" not in log and "expected: 42" not in log, log
    assert "PROBE list ../.. -> Permission denied" in log  # the work root is not listable
    own = {line.split(": ", 1)[1] for line in log.splitlines() if line.startswith("PROBE in .: ")}
    assert own <= {
        ".",
        "..",
        "launch.txt",
        "in_x.bin",
        "in_y.bin",
        "out_z.bin",
        ".stdout",
        ".stderr",
        "result.json",
    }, own
    assert outcome["victim"].status is Status.OK, outcome["victim"].message


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


def _client(daemon):
    from ascend_gym.client import DaemonClient

    return DaemonClient(daemon.address, heartbeat_s=1.0)
