"""Reward integrity: a candidate changes its result only by being faster, and a run's budget holds.

One test per attack class of issue 18, each asserting the charged failure or the refusal, with
the daemon still serving afterwards. Kernels that must reach the deeper layers run on a daemon
whose operator turned the source policy off (`--source-policy off`): what the policy would have
stopped, the candidate process's syscall filter and the launcher's checks must stop too. Every
kernel is safe if containment failed: one fork at most, network to 127.0.0.1 only, no file
written outside its own directory.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.package import OperatorPackage, Tolerance, load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon import references

from .conftest import (
    ADD_DIR,
    add_variant,
    client_operator,
    reply_of,
    sandbox_uids,
    send_raw,
    small_request,
    stall,
    uid_processes,
    wait_until,
)

HEADERS = "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <cerrno>\n"
POSIX = HEADERS + "#include <unistd.h>\n#include <sys/mman.h>\n#include <sys/socket.h>\n"
POSIX += "#include <sys/shm.h>\n#include <netinet/in.h>\n#include <signal.h>\n"


@pytest.fixture(scope="module")
def open_daemon(tmp_path_factory):
    """A daemon without the source policy: the syscall filter and the launcher stand alone. Its
    evaluations get a 32 MiB disk quota."""
    # Native engine: its syscall filter, GM guard and trace are under test (the guest's own:
    # test_guest_boundary.py, test_guest_redteam.py).
    with LocalDaemon(
        backend="sim",
        workers=1,
        state_dir=tmp_path_factory.mktemp("state"),
        extra_args=["--source-policy", "off", "--disk-quota-mb", "32"],
    ) as d:
        yield d


@pytest.fixture()
def open_client(open_daemon):
    c = DaemonClient(open_daemon.address, heartbeat_s=1.0)
    uids = sandbox_uids(c)
    if not uids:
        pytest.skip("the syscall filter is tested under a root daemon's sandbox users")
    yield c
    assert open_daemon.process.poll() is None and c.health().ok
    assert uid_processes(uids) == []
    c.close()


def _run(client: DaemonClient, tmp_path, body: str, includes: str = POSIX, run_id: str = "adv"):
    return client.evaluate(small_request(add_variant(tmp_path, body, includes), run_id=run_id))


# ---- (a) the measurement comes from a process the candidate cannot touch ------------------------
def test_forging_result_json_is_a_forbidden_system_call(tmp_path, open_client):
    """The old harness wrote result.json beside the kernel: a kernel could write a 100x speedup
    into it and exit. Now the result goes to a descriptor only the launcher holds, and opening a
    file to write ends the launch."""
    body = r"""
    FILE* f = fopen("result.json", "w");
    if (f) { fputs("{\"status\": \"OK\", \"latency_us\": 0.01}", f); fclose(f); }
    _exit(0);"""
    result = _run(open_client, tmp_path, body)
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "forbidden system call 257 (openat" in result.message
    assert result.latency_us is None


def test_frames_forged_on_the_channel_are_rejected(tmp_path, open_client):
    """A kernel writes an end-of-launch record (and garbage) to every descriptor it may hold,
    then exits: the launcher parses, and refuses, what it did not expect."""
    body = """
    unsigned char end[16] = {3, 0, 0, 0};  // Kind::kEnd, no payload
    for (int fd = 3; fd < 64; ++fd) { write(fd, end, sizeof end); write(fd, "forged", 6); }
    _exit(0);"""
    result = _run(open_client, tmp_path, body)
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "malformed launch record" in result.message


def test_exiting_early_is_a_failure(tmp_path, open_client):
    result = _run(open_client, tmp_path, "    _exit(0);")
    assert result.status is Status.RUNTIME_ERROR
    assert "exited (code 0) before its launch finished" in result.message


@pytest.mark.parametrize(
    ("attack", "body", "syscall"),
    [
        ("fork", "    if (fork() == 0) _exit(0);", "56 (clone"),
        ("SysV IPC", "    shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);", "29 (SysV IPC"),
        ("signal the launcher", "    kill(0, SIGCONT);", "62 (kill"),  # its process group
        (
            "executable memory",
            "    mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);",
            "9 (mmap",
        ),
        (
            "make code writable",
            "    static char page[8192]; mprotect((void*)(((unsigned long)page + 4095) & ~4095UL), 4096, PROT_READ | PROT_EXEC);",
            "10 (mprotect",
        ),
    ],
)
def test_forbidden_system_calls_end_the_launch(tmp_path, open_client, attack, body, syscall):
    result = _run(open_client, tmp_path, body + '\n    fprintf(stderr, "PROBE survived\\n");')
    assert result.status is Status.RUNTIME_ERROR, (attack, result.message)
    assert f"forbidden system call {syscall}" in result.message, result.message
    assert "PROBE survived" not in result.log_tail


def test_reading_files_fails(tmp_path, open_client):
    """Opening to read fails (EACCES) once the kernel runs: no state file, cache entry or other
    evaluation's directory can be read, whatever its permissions."""
    body = r"""
    for (const char* path : {"/proc/self/maps", "launch.txt", "/etc/hostname"}) {
      FILE* f = fopen(path, "r");
      fprintf(stderr, "PROBE read %s -> %s\n", path, f ? "read" : strerror(errno));
    }
    abort();"""
    log = _run(open_client, tmp_path, body).log_tail
    for path in ("/proc/self/maps", "launch.txt", "/etc/hostname"):
        assert f"PROBE read {path} -> Permission denied" in log, log


GUARD_PAGE = "(void*)((unsigned long)z & ~4095UL)"  # the first page of the output's guarded view


@pytest.mark.parametrize(
    ("attack", "body", "syscall"),
    [
        ("unprotect", f"    mprotect({GUARD_PAGE}, 4096, PROT_READ | PROT_WRITE);", "10 (mprotect"),
        ("unmap", f"    munmap({GUARD_PAGE}, 4096);", "11 (changing guarded device memory"),
        (
            "map over",
            f"    mmap({GUARD_PAGE}, 4096, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);",
            "9 (mmap",
        ),
        (
            "duplicate",
            f"    mremap({GUARD_PAGE}, 0, 4096, MREMAP_MAYMOVE);",
            "25 (changing guarded device memory",
        ),
        (
            "free the pages",
            f"    madvise({GUARD_PAGE}, 4096, MADV_REMOVE);",
            "28 (changing guarded device memory",
        ),
        # a range from below the guard window into it (the filter's 64-bit end arithmetic)
        (
            "reach in from below",
            "    mprotect((void*)((1UL << 44) - 4096), 1UL << 20, PROT_READ | PROT_WRITE);",
            "10 (mprotect",
        ),
        ("replace the trap handler", "    signal(SIGTRAP, SIG_IGN);", "13 (rt_sigaction"),
    ],
)
def test_tampering_with_the_guard_ends_the_launch(tmp_path, open_client, attack, body, syscall):
    """The kernel's view of GM and UB lies in a window no memory call of candidate code may touch,
    and the fault handlers that charge raw accesses cannot be replaced: each attempt is a charged
    RUNTIME_ERROR before the kernel computes anything uncharged."""
    run_id = f"guard-{attack}"
    result = _run(
        open_client, tmp_path, body + '\n    fprintf(stderr, "PROBE survived\\n");', run_id=run_id
    )
    assert result.status is Status.RUNTIME_ERROR, (attack, result.message)
    assert f"forbidden system call {syscall}" in result.message, result.message
    assert "PROBE survived" not in result.log_tail
    assert open_client.ledger(run_id).by_status.get("RUNTIME_ERROR") == 1  # charged


def _tail_variant(tmp_path, tail: str) -> OperatorPackage:
    """level1/add with `tail` run by every block after its own work."""
    add_variant(tmp_path, comment=tail.replace("\n", " "))
    kernel = tmp_path / "add" / "op_kernel" / "add.cpp"
    source = kernel.read_text()
    assert "  op.Process();\n}" in source
    kernel.write_text(source.replace("  op.Process();\n}", f"  op.Process();\n{tail}\n}}"))
    return load_package(tmp_path / "add")


def _timed(pkg: OperatorPackage, run_id: str) -> EvalRequest:
    return EvalRequest(
        run_id=run_id,
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        cases=["aligned_fp16"],
    )


TRACE = "const_cast<ascendc_sim::CoreTrace&>(ascendc_sim::CurrentCore().Trace())"


@pytest.mark.parametrize(
    ("attack", "tail"),
    [
        # the trace is behind a const accessor; a kernel that writes the emulation's memory casts it away
        ("truncate the trace", f"  {TRACE}.instrs.clear();"),
        # every recorded instruction made as cheap as it gets: one repeat, one 32 B burst, no scalar work
        (
            "forge a latency",
            f"  for (auto& i : {TRACE}.instrs) {{\n"
            "    i.repeats = i.repeats ? 1 : 0; i.unitBytes = i.unitBytes > 32 ? 32 : i.unitBytes;\n"
            "    i.elements = i.elements ? 1 : 0; i.scalarCycles = 0;\n  }",
        ),
    ],
)
def test_a_trace_altered_after_the_work_is_a_failure(tmp_path, open_client, attack, tail):
    """A kernel that reaches the emulation's memory does the work through the API, then cuts or
    cheapens its own trace before it is sent: the launcher finds output bytes that no recorded
    write paid for, and the launch is a charged RUNTIME_ERROR, never a faster OK."""
    run_id = f"trace-{attack}"
    result = open_client.evaluate(_timed(_tail_variant(tmp_path, tail), run_id))
    assert result.status is Status.RUNTIME_ERROR, (attack, result.message)
    assert "bytes of its outputs, but its trace pays for writes of only" in result.message, (
        result.message
    )
    assert result.latency_us is None
    assert open_client.ledger(run_id).by_status.get("RUNTIME_ERROR") == 1


def test_outputs_written_around_the_emulation_are_a_failure(tmp_path, open_client):
    """Block 0 computes the whole sum through the emulation's host view of GM in plain C++, and
    every block skips the API work: a would-be 100x speedup. Refused when the trace does not pay
    for the bytes written; since the scalar unit model charges the kernel's own instructions, the
    loop pays for them and is timed slower than the API work it replaced."""
    body = """
    auto* hx = (half*)ascendc_sim::GmHost(x);
    auto* hy = (half*)ascendc_sim::GmHost(y);
    auto* hz = (half*)ascendc_sim::GmHost(z);
    GET_TILING_DATA(t, tiling);
    for (uint32_t i = 0; i < t.totalLength; ++i) hz[i] = (half)((float)hx[i] + (float)hy[i]);
  }
  {
    return;"""
    run_id = "host-view"
    result = open_client.evaluate(_timed(add_variant(tmp_path, body), run_id))
    if result.status is Status.OK:
        base = open_client.evaluate(_timed(add_variant(tmp_path / "base"), f"{run_id}-base"))
        assert result.latency_us > base.latency_us, (result.latency_us, base.latency_us)
        return
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "bytes of its outputs, but its trace pays for writes of only" in result.message, (
        result.message
    )
    assert open_client.ledger(run_id).by_status.get("RUNTIME_ERROR") == 1


def test_a_benign_kernel_is_unchanged(tmp_path, open_client):
    result = open_client.evaluate(
        EvalRequest(
            run_id="benign",
            package=add_variant(tmp_path, comment="benign"),
            stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
            cases=["aligned_fp16"],
        )
    )
    assert result.status is Status.OK and result.latency_us > 0, result.message


# ---- (b) the source policy ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("snippet", "includes", "rule"),
    [
        ('    asm volatile("nop");', "", "inline assembly"),
        ("    void* b[5]; if (__builtin_setjmp(b)) return;", "", "non-local jumps"),
        # (constructors and destructors are deferred or dropped by ctors.defer, not refused)
        ("", '__attribute__((section(".text.early"))) static void early() {}\n', "chosen section"),
        ("    auto f = reinterpret_cast<void (*)()>(0x1234); f();", "", "function pointer"),
        ("    ascendc_sim::SetTilingKey(0);", "", "simulator's internals"),
        ("", '#include "/etc/hostname"\n', "outside the package"),
        ('    P(__as, m__)("nop");', "#define P(a, b) a##b\n", "inline assembly"),
    ],
)
def test_source_policy_rejects_before_compiling(tmp_path, native_client, snippet, includes, rule):
    # Native engine: its token gate (the guest's gate is the module's imports: test_guest_boundary.py).
    client = native_client
    pkg = add_variant(tmp_path, snippet, includes, comment=rule)
    result = client.evaluate(small_request(pkg, run_id="policy"))
    assert result.status is Status.REJECTED, result.message
    assert rule in result.message and "op_kernel/add.cpp:" in result.message
    line = int(result.message.split("op_kernel/add.cpp:")[1].split(":")[0])
    offending = (snippet or includes).strip().splitlines()[0].strip()
    assert offending in pkg.files["op_kernel/add.cpp"].splitlines()[line - 1]
    assert result.cost.compile_s == 0  # nothing compiled
    assert client.ledger("policy").by_status.get("REJECTED", 0) >= 1  # charged


# ---- (d) budgets: run tokens ----------------------------------------------------------------------
def test_run_tokens_enforce_the_budget(tmp_path, client):
    """A run opened with budget 2 serves two charged evaluations, refuses the third, refuses a
    wrong or missing token, and cannot be opened again with a larger budget. Kernels calling a
    name no API declares are charged COMPILE_ERRORs on either engine: cheap budget fillers."""
    opened = client.open_run("budgeted", budget=2)
    assert opened.budget == 2 and opened.token
    bad = [add_variant(tmp_path / str(i), f"    no_api_{i}();", comment=str(i)) for i in range(3)]
    for pkg in bad[:2]:
        assert client.evaluate(small_request(pkg, run_id="budgeted")).status is Status.COMPILE_ERROR
    third = client.evaluate(small_request(bad[2], run_id="budgeted"))
    assert third.status is Status.REJECTED and "spent its budget of 2" in third.message
    assert client.ledger("budgeted").evaluations == 2  # the refusal is not charged
    # A byte-identical resubmission is free: served even with the budget spent.
    again = client.evaluate(small_request(bad[0], run_id="budgeted"))
    assert again.cache_hit and "no_api_0" in again.message
    stranger = DaemonClient(client.address)  # no token
    refused = stranger.evaluate(small_request(bad[0], run_id="budgeted"))
    assert refused.status is Status.REJECTED and "token" in refused.message
    forged = small_request(bad[0], run_id="budgeted").model_copy(update={"token": "guess"})
    assert "token" in stranger.evaluate(forged).message
    with pytest.raises(Exception, match="already exists"):
        stranger.open_run("budgeted", budget=100)
    unknown = small_request(bad[0], run_id="never-opened").model_copy(update={"token": "guess"})
    assert "unknown run token" in stranger.evaluate(unknown).message
    stranger.close()


def test_a_request_id_is_not_served_under_another_run(tmp_path, client):
    # Run ids of its own: the session's daemon serves other directories' runs too.
    request = small_request(add_variant(tmp_path, "    no_api();"), run_id="moved-first")
    assert client.evaluate(request).status is Status.COMPILE_ERROR
    moved = request.model_copy(update={"run_id": "moved-second"})
    answer = client.evaluate(moved)
    assert "already used" in answer.message
    second = client.ledger("moved-second")
    assert second.evaluations == 0 and second.cache_hits == 0


# ---- (e) containment ------------------------------------------------------------------------------
def test_timeouts_are_part_of_the_cache_key(tmp_path, client):
    pkg = add_variant(tmp_path, "    syscall(2);", comment="timeouts")
    first = client.evaluate(small_request(pkg, run_id="timeouts", run_s=20.0))
    other = client.evaluate(small_request(pkg, run_id="timeouts", run_s=21.0))
    assert first.cost.cache_source == "none" and other.cost.cache_source == "none"
    assert client.ledger("timeouts").evaluations == 2


def test_a_disk_filler_is_charged_and_the_daemon_serves_on(tmp_path, open_client):
    """Each evaluation's directory is a tmpfs of --disk-quota-mb: a kernel that prints 96 MiB (and
    stops there, should the quota fail) fills its 32 MiB, the launcher then cannot write the
    outputs, and that is the candidate's charged RUNTIME_ERROR, not a free DAEMON_ERROR."""
    body = r"""
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 96; ++i) fwrite(chunk, 1, sizeof chunk, stdout);
    fflush(stdout);"""
    result = _run(open_client, tmp_path, body, run_id="disk-filler")
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "filled its disk quota of 32 MiB" in result.message, result.message
    assert open_client.ledger("disk-filler").by_status.get("RUNTIME_ERROR") == 1
    again = _run(open_client, tmp_path, "", run_id="disk-filler")  # the next evaluation has room
    assert again.status is Status.OK, again.message


@pytest.fixture(scope="module")
def tight_daemon(tmp_path_factory):
    """One worker, at most 300 kB of requests waiting."""
    with LocalDaemon(
        workers=1,
        state_dir=tmp_path_factory.mktemp("state"),
        extra_args=["--max-queue-bytes", "300000"],
    ) as d:
        yield d


def test_queued_bytes_are_bounded(tmp_path, tight_daemon):
    """Requests are bounded by the memory they hold too: two 100 kB packages (each held twice,
    as wire bytes and as parsed sources) do not both wait."""
    client = DaemonClient(tight_daemon.address)
    sleeper = add_variant(tmp_path / "s", stall(2), comment="bytes")
    running = send_raw(tight_daemon.address, small_request(sleeper, run_id="bytes"))
    wait_until(lambda: client.health().running == 1)
    padding = "// " + "x" * 100_000
    big = [add_variant(tmp_path / str(i), comment=f"{i} {padding}") for i in range(2)]
    queued = send_raw(tight_daemon.address, small_request(big[0], run_id="bytes"))
    wait_until(lambda: client.health().queued == 1)
    refused = reply_of(send_raw(tight_daemon.address, small_request(big[1], run_id="bytes")), 5)
    assert refused["status"] == "BUSY" and "bytes" in refused["message"], refused["message"]
    assert reply_of(running)["status"] == "OK" and reply_of(queued)["status"] == "OK"
    client.close()


def test_in_flight_duplicates_are_evaluated_once(tmp_path, tight_daemon):
    """Two requests for one evaluation, the second sent while the first runs: one evaluation; the
    same run gets the second free, another run is charged for a shared result."""
    client = DaemonClient(tight_daemon.address)
    pkg = add_variant(tmp_path, stall(2), comment="duplicates")
    first = send_raw(tight_daemon.address, small_request(pkg, run_id="dup"))
    wait_until(lambda: client.health().running == 1)
    same_run = send_raw(tight_daemon.address, small_request(pkg, run_id="dup"))
    # A heartbeating client: the daemon knows its request while it waits, so it never resends.
    waiting = DaemonClient(tight_daemon.address, heartbeat_s=0.3)
    answers: dict = {}
    thread = threading.Thread(
        target=lambda: answers.setdefault(
            "c", waiting.evaluate(small_request(pkg, run_id="dup-other")).model_dump(mode="json")
        )
    )
    thread.start()
    a, b = reply_of(first), reply_of(same_run)
    thread.join()
    c = answers["c"]
    assert a["status"] == b["status"] == c["status"] == "OK"
    assert a["cost"]["cache_source"] == "none" and b["cache_hit"]
    assert c["cost"]["cache_source"] == "shared" and not c["cache_hit"]
    waiting.close()
    assert client.ledger("dup").evaluations == 1 and client.ledger("dup").cache_hits == 1
    assert client.ledger("dup-other").shared_cache_hits == 1
    client.close()


def test_state_is_unreadable_to_sandbox_users(client, daemon):
    """The state directory (cache, ledger, run token hashes) is the daemon's alone."""
    uids = sandbox_uids(client)
    if not uids:
        pytest.skip("needs a root daemon with sandbox users")
    args = daemon.process.args
    state = Path(args[args.index("--state-dir") + 1])
    assert (state.stat().st_mode & 0o777) == 0o700
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only probes
        code = 2
        try:
            os.setgid(64000)
            os.setuid(min(uids))
            (state / "state.db").read_bytes()
            code = 1
        except PermissionError:
            code = 0
        finally:
            os._exit(code)
    assert os.waitpid(pid, 0)[1] == 0


def test_a_full_disk_is_a_daemon_error_and_the_daemon_keeps_serving(tmp_path):
    """Evaluations' directories on a 4 MiB tmpfs, filled up: DAEMON_ERROR (uncharged, no
    candidate text, no traceback); freed again, the same daemon evaluates normally."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    disk = Path(tempfile.mkdtemp(prefix="npu_daemon-full-"))  # reachable by the sandbox users
    disk.chmod(0o755)
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=755", "tmpfs", str(disk)], check=True
    )
    try:
        with LocalDaemon(  # no per-evaluation tmpfs: the evaluations write on the full disk
            workers=1,
            state_dir=tmp_path / "state",
            extra_args=["--work-dir", str(disk), "--disk-quota-mb", "0"],
        ) as d:
            client = DaemonClient(d.address)
            filler = disk / "filler"
            # (the close too may find no room for what the last write left in the buffer)
            with contextlib.suppress(OSError), filler.open("wb") as f:
                while True:  # stops at the tmpfs's 4 MiB
                    f.write(b"\0" * 65536)
                    f.flush()
            pkg = add_variant(tmp_path / "k", comment="full disk")
            full = client.evaluate(small_request(pkg, run_id="full"))
            assert full.status is Status.DAEMON_ERROR, full.message
            assert "Traceback" not in full.log_tail + full.message and "add.cpp" not in full.message
            filler.unlink()
            again = client.evaluate(small_request(pkg, run_id="full"))
            assert again.status is Status.OK, again.message
            assert client.ledger("full").evaluations == 1  # the DAEMON_ERROR was not charged
            client.close()
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
        disk.rmdir()


# ---- (f) references are trusted code --------------------------------------------------------------
def _loosened(pkg: OperatorPackage) -> OperatorPackage:
    """add with every tolerance wide open and its bench case moved to the smallest case, sent as
    add (its op:// URI: a result for it is a result for add). Without the URI it is not add's by
    content, so it is its own operator, judged by its own spec and never reported as add."""
    spec = pkg.spec.model_copy(deep=True)
    wide = Tolerance(atol=1e30, rtol=1e30, max_outlier_fraction=1.0)
    spec.tolerance = {"float16": wide, "float32": wide}
    for case in spec.cases:
        case.bench = case.name == "aligned_fp16"
    return pkg.model_copy(update={"spec": spec, "uri": suite.resolve("level1/add").uri})


def test_a_client_cannot_loosen_a_suite_operators_tolerance(tmp_path, client):
    """Block 0 skips its share of the work: wrong under add's own spec, whatever the client's says."""
    pkg = _loosened(add_variant(tmp_path, "    return;", comment="skip block 0"))
    assert pkg.spec.tolerance_for("float16").max_outlier_fraction == 1.0
    result = client.evaluate(small_request(pkg, run_id="loose"))
    assert result.status is Status.WRONG_ANSWER, result.message


def test_a_client_cannot_shrink_a_suite_operators_bench_case(tmp_path, client):
    pkg = _loosened(add_variant(tmp_path, comment="small bench"))
    request = EvalRequest(run_id="bench", package=pkg, stages=[Stage.COMPILE, Stage.TIME])
    result = client.evaluate(request)
    assert result.status is Status.OK and result.bench_case == "bench_fp16", result.message


def test_a_suite_operator_is_matched_exactly(tmp_path, client):
    """Which suite operator judges a package is exact: an imported operator that shares add's name
    but declares another suite (its op:// URI) keeps its own spec; one that declares the suite is
    judged as add, whatever its spec says; one without a URI is add only by content (add's spec
    and reference unchanged), else it is its own operator and keeps its spec."""
    loose = _loosened(add_variant(tmp_path, comment="which add"))
    answers = {}
    for uri in ("op://imported/level1/add", "op://ascend-ops-v1/level1/add", ""):
        pkg = loose.model_copy(update={"uri": uri})
        request = EvalRequest(run_id="exact", package=pkg, stages=[Stage.COMPILE, Stage.TIME])
        result = client.evaluate(request)
        assert result.status is Status.OK, (uri, result.message)
        answers[uri] = result.bench_case
    assert answers == {
        "op://imported/level1/add": "aligned_fp16",  # its own (the client's) bench case
        "op://ascend-ops-v1/level1/add": "bench_fp16",
        "": "aligned_fp16",  # not add's content: its own spec
    }
    own = suite.resolve("level1/add")
    assert references.suite_twin(own.model_copy(update={"uri": ""})) == own  # add by content


def test_a_client_reference_runs_in_the_sandbox(tmp_path, client):
    """A package that is not a suite operator brings its own reference: it runs (and is used:
    the first evaluation passes) as the sandbox user, on a read-only filesystem, so a reference
    that writes to /tmp fails and its package is REJECTED."""
    reference = (ADD_DIR / "reference.py").read_text()
    root = client_operator(
        tmp_path, "myadd", f"# not in the case cache yet: {uuid.uuid4()}\n{reference}"
    )
    ok = client.evaluate(small_request(load_package(root), run_id="own-ref"))
    assert ok.status is Status.OK, ok.message
    probe = Path("/tmp", f"npu_daemon_probe_{uuid.uuid4().hex}")
    (root / "reference.py").write_text(
        f"try:\n    open({str(probe)!r}, 'w')\nexcept OSError as e:\n"
        "    raise SystemExit(f'PROBE {e}')\n" + reference
    )
    try:
        result = client.evaluate(small_request(load_package(root), run_id="own-ref"))
        assert result.status is Status.REJECTED, result.message
        assert "PROBE [Errno 30] Read-only file system" in result.message, result.message
        assert not probe.exists()
    finally:
        probe.unlink(missing_ok=True)


def test_a_client_reference_may_use_numpys_lazy_submodules(tmp_path, client):
    """numpy imports ma, fft, random and polynomial on first use; the sandboxed child is forked
    as a user that may not read the interpreter's files (CI's venv sits in a 0700 directory), so
    the worker imports them before the fork and the reference finds them, as it finds the cube's
    accumulation (`ascend_core.suite.cube_ref`) that cube operators' references call."""
    reference = (
        f"# fresh: {uuid.uuid4()}\nimport numpy as np\n\n"
        "from ascend_core.suite.cube_ref import mmad\n\n\ndef add(x, y):\n"
        "    assert np.fft.fft(np.ones(4))[0] == 4 and np.polynomial.Polynomial([1])(2) == 1\n"
        "    assert mmad(np.ones((2, 3), np.float16), np.ones((3, 2), np.float16))[0, 0] == 3\n"
        "    np.random.default_rng(0)\n"
        "    return np.ma.getdata(np.ma.array(x + y))\n"
    )
    root = client_operator(tmp_path, "lazyadd", reference)
    result = client.evaluate(small_request(load_package(root), run_id="lazy"))
    assert result.status is Status.OK, result.message


def test_a_reference_cannot_relink_its_log_to_a_daemon_file(tmp_path, client):
    """The log tail is read through the descriptor the child was given, not its path: a child
    that replaces its stderr with a link to a file only root may read leaks nothing."""
    secret_dir = Path(tempfile.mkdtemp(prefix="npu_daemon-secret-"))
    secret_dir.chmod(0o755)
    secret = secret_dir / "secret"
    secret.write_text(f"SECRET-{uuid.uuid4().hex}\n")
    secret.chmod(0o600)
    root = client_operator(
        tmp_path,
        "myadd",
        "import os\nlogs = [f for f in os.listdir('.') if f.startswith('.stderr')]\n"
        f"for log in logs:\n    os.unlink(log)\n    os.symlink({str(secret)!r}, log)\n"
        "raise SystemExit(f'PROBE relinked {len(logs)}')\n",
    )
    try:
        result = client.evaluate(small_request(load_package(root), run_id="relink"))
        assert result.status is Status.REJECTED, result.message
        assert re.search(r"PROBE relinked [1-9]", result.message), result.message  # its own log
        assert "SECRET" not in result.message + result.log_tail
    finally:
        shutil.rmtree(secret_dir)
