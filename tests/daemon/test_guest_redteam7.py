"""A seventh red team of the guest engine (issue 50, docs/trust_boundary.md, "A seventh red
team"): what the sixth round left open and faces not attacked before, each asserting the honest
outcome against a real `sim-guest` daemon (or the trusted program itself, where the attack is on
its own step).

Safe if containment fails: connections go to 127.0.0.1 only and are bounded in number; the
packages are level1/add's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import Status
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.common import build

from .conftest import ADD_DIR, client_operator, small_request


# ---- the precompile step: trusted code that wrote nothing and said nothing --------------------
@pytest.mark.parametrize("out", ["/dev/full", "missing-dir/kernel.cwasm"])
def test_the_precompile_fails_when_its_output_is_not_written(tmp_path: Path, out: str):
    # `Precompile` wrote the machine code through an unchecked stream: a write that failed (a
    # full disk, a path it cannot create, a read-only link of the output's name) exited 0, and
    # whatever lay at the path was taken for the module wasmtime deserialises without checking.
    # The Python side refuses a missing or linked output since the sixth round; the harness
    # itself now says so.
    (tmp_path / "kernel.wasm").write_bytes(b"\0asm\1\0\0\0")  # the empty module: valid
    harness = str(build.ensure_runtime().harness)
    done = subprocess.run(
        [harness, "--precompile", "kernel.wasm", out],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0, done
    assert "cannot write the precompiled module" in done.stderr
    ok = subprocess.run(
        [harness, "--precompile", "kernel.wasm", "kernel.cwasm"], cwd=tmp_path, timeout=60
    )
    assert ok.returncode == 0 and (tmp_path / "kernel.cwasm").stat().st_size > 0


# ---- the service: connections and the daemon's descriptors --------------------------------------
def idle_connection(port: int) -> socket.socket | None:
    """A ZMTP connection that completes the NULL handshake, then sends nothing: libzmq keeps such
    a connection open for good. None if the daemon did not answer within 2 s."""
    s = socket.create_connection(("127.0.0.1", port), timeout=2)
    try:
        s.sendall(b"\xff" + b"\0" * 8 + b"\x7f\x03\x00" + b"NULL".ljust(20, b"\0") + b"\0" * 32)
        got = b""
        while len(got) < 64:
            part = s.recv(64 - len(got))
            if not part:  # cut already
                return s
            got += part
        ready = b"\x05READY\x0bSocket-Type\0\0\0\x06DEALER"
        s.sendall(bytes([0x04, len(ready)]) + ready)
        return s
    except TimeoutError:
        s.close()
        return None


def test_idle_connections_cannot_take_every_descriptor(tmp_path: Path):
    # Each accepted connection holds a descriptor of the daemon's, and one past ZeroMQ's handshake
    # stays open while idle. With the descriptor limit at 256, 300 idle connections held all 256
    # and an honest client's evaluation went unanswered (`no answer ... after 12 s`); the main
    # loop spent 1.6 s of CPU in 5 s idle. Now the connections past a quarter of the limit are
    # cut, the least recently used first.
    with LocalDaemon(backend="sim-guest", workers=1, state_dir=tmp_path) as daemon:
        pid, port = daemon.process.pid, int(daemon.address.rsplit(":", 1)[1])
        subprocess.run(["prlimit", "--pid", str(pid), "--nofile=256:256"], check=True)
        conns: list[socket.socket] = []
        try:
            for _ in range(300):
                s = idle_connection(port)
                if s is None:
                    break
                conns.append(s)
            time.sleep(0.5)
            held = len(os.listdir(f"/proc/{pid}/fd"))
            client = DaemonClient(daemon.address, heartbeat_s=1.0)
            honest = client.evaluate(small_request(load_package(ADD_DIR), run_id="honest"))
            client.close()
        finally:
            for s in conns:
                with contextlib.suppress(OSError):
                    s.close()
        assert len(conns) == 300, f"the daemon stopped accepting after {len(conns)} connections"
        assert held < 128, f"the daemon holds {held} descriptors"
        assert honest.status is Status.OK, (honest.status, honest.message)


# ---- the RL reward service: one completion and the batch scored with it -------------------------
@pytest.fixture()
def guest(daemon: LocalDaemon) -> LocalDaemon:
    """The session's `sim-guest` daemon (tests/conftest.py)."""
    return daemon


@pytest.mark.parametrize(
    "hostile",
    [
        {"files": "op_kernel/add.cpp"},
        {"role": "assistant", "tool_calls": [{"function": {"arguments": "{not json"}}]},
        {"role": "assistant", "tool_calls": [{"function": {"arguments": "[1]"}}]},
        [5],
        {"role": "assistant", "content": 5},
    ],
    ids=[
        "files a string",
        "arguments not JSON",
        "arguments a list",
        "a message not an object",
        "content a number",
    ],
)
def test_a_completion_of_another_shape_does_not_fail_its_batch(guest, hostile):
    # A completion's shape is the model's to choose. Five shapes raised ValueError, TypeError or
    # AttributeError out of `parse_completion`, which `score` lets through: the whole batch failed,
    # the honest completions beside it unscored. Now each is its own format error.
    from ascend_core.suite import resolve
    from ascend_gym.rl.service import RewardService

    honest = f"```cpp kernel\n{resolve('level1/add').files['op_kernel/add.cpp']}```"
    with RewardService([guest.address], budget=8) as service:
        honest_scored, hostile_scored = service.score([honest, hostile], ["level1/add"] * 2)
    assert honest_scored.result is not None and honest_scored.result.ok, honest_scored
    assert hostile_scored.result is None and hostile_scored.reward.status == "FORMAT_ERROR"


# ---- the native engine: a kernel file named like a header ----------------------------------------
def test_a_native_kernel_file_named_like_a_header_compiles_as_cpp(tmp_path: Path, native_client):
    # The sixth round's `.h` kernel file on the guest engine, on the native one: g++ made the
    # `.h` a precompiled header, which the scalar count's assembly pass read as text
    # (UnicodeDecodeError): a DAEMON_ERROR, uncharged, after the kernel's compile.
    from .test_guest_redteam6 import SUM, changed

    own = load_package(client_operator(tmp_path, "add_own", SUM))
    files = {**own.files, "op_kernel/add.h": own.files["op_kernel/add.cpp"]}
    del files["op_kernel/add.cpp"]
    pkg = changed(own.model_copy(update={"files": files}), {}, kernel_file="op_kernel/add.h")
    result = native_client.evaluate(small_request(pkg, run_id="header"))
    assert result.status is Status.OK, (result.status, result.message)


# ---- the corpus reader: a hostile checkout's build files ---------------------------------------
READ_DIRS = """
import sys
from pathlib import Path
from ascend_gym.corpus import cmake
repo = Path(sys.argv[1])
print(*cmake.include_dirs(repo, repo / "op"), sep="\\n")
"""


def assert_reads_only_its_operator(repo: Path) -> None:
    """`cmake.include_dirs` of `repo/op` in a process of its own, within 20 s and 2 GiB of
    address space, gives `repo/op/op_kernel` alone."""
    done = subprocess.run(
        [sys.executable, "-c", READ_DIRS, str(repo)],
        capture_output=True,
        text=True,
        timeout=20,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)),
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == [str(repo / "op" / "op_kernel")], done.stdout


def test_a_checkouts_links_do_not_take_the_cmake_reader_outside_it(tmp_path: Path):
    # `file(GLOB_RECURSE)` went through `glob`'s `**`, which follows links to directories: two
    # links to `.` made a walk without end (2^depth paths), one to `/` a walk of the disk, for a
    # name that matches nothing (MAX_GLOB bounds matches, not the walk). `include()` of a link
    # read the file it points to outside the checkout. Now the walk follows no link to a
    # directory (CMake's default), looks at MAX_WALK entries at most, and an included file is
    # read only if it is in the checkout.
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / "op" / "op_kernel").mkdir(parents=True)
    outside.mkdir()
    (outside / "far.cmake").write_text("include_directories(${CMAKE_CURRENT_LIST_DIR}/seen)\n")
    for name, target in (
        ("l1", "."),
        ("l2", "."),
        ("disk", "/"),
        ("far.cmake", outside / "far.cmake"),
    ):
        (repo / name).symlink_to(target)
    (repo / "CMakeLists.txt").write_text(
        'file(GLOB_RECURSE NONE "nothing.zzz")\nfile(GLOB_RECURSE ETC "disk/etc/*.conf")\n'
        "include(far.cmake)\ninclude_directories(${ETC})\nadd_subdirectory(op)\n"
    )
    (repo / "op" / "CMakeLists.txt").write_text("include_directories(op_kernel)\n")
    assert_reads_only_its_operator(repo)


def test_a_checkouts_build_files_cannot_grow_the_cmake_reader_without_bound(tmp_path: Path):
    # 40 lines of `set(A "${A}${A}")` (1 KB) asked for 2^40 characters: a MemoryError under a
    # 3 GB address-space limit, the machine's memory without one. MAX_COMMANDS bounded commands,
    # not what one expands to. Now an expanded value is cut at MAX_VALUE and each costs the
    # budget by its length; a build file past MAX_FILE_BYTES is not read.
    repo = tmp_path / "repo"
    (repo / "op" / "op_kernel").mkdir(parents=True)
    doubling = "".join('set(A "${A}${A}")\n' for _ in range(40))
    (repo / "big.cmake").write_text("# padding\n" * 200_000)
    (repo / "CMakeLists.txt").write_text(
        f"set(A x)\n{doubling}include(big.cmake)\nadd_subdirectory(op)\n"
    )
    (repo / "op" / "CMakeLists.txt").write_text("include_directories(op_kernel)\n")
    assert_reads_only_its_operator(repo)


def test_a_completion_past_the_daemons_message_bound_does_not_hang_its_batch(guest):
    # A 20 MiB completion made a request past the daemon's 16 MiB MAXMSGSIZE: libzmq drops such
    # a message's connection, the pool's connection, and the batch scored with it never finished
    # (no answer in 300 s, the honest completions beside it unscored). Now it is its own format
    # error before anything is sent.
    from concurrent.futures import TimeoutError as Waited

    from ascend_core.suite import resolve
    from ascend_gym.rl.service import RewardService

    kernel = resolve("level1/add").files["op_kernel/add.cpp"]
    honest = f"```cpp kernel\n{kernel}```"
    big = {"kernel": kernel + "\n//" + "x" * (20 << 20) + "\n"}
    with RewardService([guest.address], budget=8) as service:
        batch = service.ascore([honest, big], ["level1/add"] * 2)
        future = asyncio.run_coroutine_threadsafe(batch, service._loop)
        try:
            honest_scored, big_scored = future.result(timeout=20)
        except Waited:
            future.cancel()
            pytest.fail("the batch was not scored within 20 s")
    assert honest_scored.result is not None and honest_scored.result.ok, honest_scored
    assert big_scored.reward.status == "FORMAT_ERROR" and "16777216" in big_scored.reward.message
