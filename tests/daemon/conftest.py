"""Daemons for these tests run as real subprocesses on tmp state dirs; candidates are real
AscendC packages (level1/add copied to a tmp dir with an edited kernel) through the sim backend."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, Stage, Timeouts
from ascend_gym.client import DaemonClient, LocalDaemon

ADD_DIR = Path(suite.__file__).parent / "level1" / "add"
ENTRY = "GM_ADDR workspace, GM_ADDR tiling) {"


def add_variant(
    tmp: Path, body: str = "", includes: str = "", comment: str = ""
) -> OperatorPackage:
    """level1/add copied into tmp, with `body` run first by block 0 of the kernel."""
    root = tmp / "add"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(ADD_DIR, root, ignore=shutil.ignore_patterns("expert", "__pycache__"))
    kernel = root / "op_kernel" / "add.cpp"
    source = kernel.read_text()
    assert ENTRY in source
    probe = f"\n  if (GetBlockIdx() == 0) {{\n{body}\n  }}\n" if body else ""
    kernel.write_text(f"{includes}\n{source.replace(ENTRY, ENTRY + probe)}\n// {comment}\n")
    return load_package(root)


def client_operator(tmp: Path, name: str, reference: str) -> Path:
    """level1/add copied into tmp as the client's own operator `name` (not a suite operator, so
    its `reference` source is the client's code and runs in the sandbox)."""
    root = tmp / name
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(ADD_DIR, root, ignore=shutil.ignore_patterns("expert", "__pycache__"))
    toml = (root / "op.toml").read_text()
    toml = toml.replace('name = "add"', f'name = "{name}"\nop_type = "Add"\nkernel = "add"', 1)
    (root / "op.toml").write_text(toml)
    (root / "reference.py").write_text(reference)
    return root


def small_request(
    pkg: OperatorPackage, run_id: str = "t", run_s: float = 20.0, **kw
) -> EvalRequest:
    """One small correctness case, no timing: the fastest real evaluation."""
    return EvalRequest(
        run_id=run_id,
        package=pkg,
        stages=[Stage.COMPILE, Stage.CHECK],
        cases=["aligned_fp16"],
        timeouts=Timeouts(build_s=60, run_s=run_s),
        **kw,
    )


def _connected(daemon: LocalDaemon) -> DaemonClient:
    c = DaemonClient(daemon.address, heartbeat_s=1.0)
    yield c
    c.close()


# The session's daemon of each engine (tests/conftest.py), as objects: every test keeps to run ids
# of its own, and a test whose property is a daemon's own state starts its own.
@pytest.fixture(scope="session")
def daemon(guest_local: LocalDaemon) -> LocalDaemon:
    return guest_local


@pytest.fixture()
def client(daemon: LocalDaemon) -> DaemonClient:
    yield from _connected(daemon)


@pytest.fixture(scope="session")
def native_daemon(native_local: LocalDaemon) -> LocalDaemon:
    """The native engine (`--backend sim`), still selectable: its own containment stays tested."""
    return native_local


@pytest.fixture()
def native_client(native_daemon: LocalDaemon) -> DaemonClient:
    yield from _connected(native_daemon)


@pytest.fixture(scope="session")
def unchecked_native(tmp_path_factory) -> LocalDaemon:
    """The native engine with the acceptance check off (`--source-policy off`), so hostile kernels
    reach its deeper layers (the syscall filter, the sandbox, the harness); shared by the modules
    that need no other flag."""
    state = tmp_path_factory.mktemp("unchecked")
    extra = ["--source-policy", "off"]
    with LocalDaemon(backend="sim", workers=2, state_dir=state, extra_args=extra) as d:
        yield d


def stall(seconds: float) -> str:
    """A kernel body keeping block 0 busy about `seconds` in its own scalar loop (3.5e8 turns a
    second on the guest engine at load 5): libc's sleep is no AscendC API, and the guest has none."""
    turns = int(seconds * 3.5e8)
    return f"    for (volatile uint32_t spin = 0; spin < {turns}u; spin = spin + 1) {{}}"


def sandbox_uids(client: DaemonClient) -> set[int]:
    """The uids a root daemon's two workers run candidates as (empty: no sandbox users)."""
    who = client.stats().sandbox_user
    if os.geteuid() != 0 or not who.endswith("+worker"):
        return set()
    first = int(who.split()[1].split("+")[0])
    return {first, first + 1}


def uid_processes(uids: set[int]) -> list[int]:
    """Pids of live processes owned by any of `uids`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (
                    entry.stat().st_uid in uids
                    and "State:\tZ" not in (entry / "status").read_text()
                ):
                    pids.append(int(entry.name))
            except (FileNotFoundError, ProcessLookupError):
                continue
    return pids


def send_raw(address: str, request: EvalRequest):
    """Submit without waiting: a DEALER of its own, to be read with `reply_of`."""
    import zmq

    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(address)
    sock.send_multipart([b"", request.model_dump_json().encode()])
    return sock


def reply_of(sock, timeout_s: float = 120.0) -> dict:
    import json

    assert sock.poll(int(timeout_s * 1000)), "no reply"
    reply = json.loads(sock.recv_multipart()[-1])
    sock.close()
    return reply


def wait_until(predicate, timeout_s: float = 60.0, every_s: float = 0.05) -> None:
    import time

    end = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(every_s)


def daemon_args(argv: list[str]):
    """`ascend-gym daemon ARGV` parsed as the console script parses it."""
    import argparse

    from ascend_gym.commands import daemon as daemon_cmd

    parser = argparse.ArgumentParser()
    daemon_cmd.configure(parser)
    return parser.parse_args(argv)
