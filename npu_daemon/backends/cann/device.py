"""The NPU itself: health from `npu-smi info`, and one user at a time.

Timing is only meaningful when nothing else runs on the device, and msprof refuses a second
collection on a device anyway, so every device run (correctness and timing) holds an exclusive
file lock per device; builds take no lock and run in parallel.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import logging
import os
import re
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

log = logging.getLogger("npu_daemon")
HEALTHY = "OK"
# What a process using an NPU opens: the device itself, the driver's manager, shared virtual
# memory and host-device channel. The driver creates them owned by its group (HwHiAiUser by default).
DEVICE_NODES = ("/dev/davinci[0-9]*", "/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc")
# First row of each device in the `npu-smi info` table: "| 0     910B4    | OK    | 93.1 ... |"
_DEVICE_ROW = re.compile(r"^\|\s*(\d+)\s+([^|\s]+)\s*\|\s*([A-Za-z]+)\s*\|", re.M)
_VERSION = re.compile(r"Version:\s*(\S+)")


class DeviceError(Exception):
    pass


class Npu(BaseModel):
    device_id: int
    name: str
    health: str


class NpuSmiInfo(BaseModel):
    driver: str
    devices: list[Npu]

    def device(self, device_id: int) -> Npu:
        for d in self.devices:
            if d.device_id == device_id:
                return d
        raise DeviceError(
            f"npu-smi lists no device {device_id} (found {[d.device_id for d in self.devices]})"
        )


def parse_npu_smi(text: str) -> NpuSmiInfo:
    version = _VERSION.search(text)
    devices = [Npu(device_id=int(m[1]), name=m[2], health=m[3]) for m in _DEVICE_ROW.finditer(text)]
    return NpuSmiInfo(driver=version[1] if version else "unknown", devices=devices)


def npu_smi_info(timeout_s: float = 20.0) -> NpuSmiInfo:
    try:
        done = subprocess.run(
            ["npu-smi", "info"], capture_output=True, text=True, timeout=timeout_s
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise DeviceError(f"npu-smi info failed: {e}") from e
    if done.returncode != 0:
        raise DeviceError(
            f"npu-smi info exited with {done.returncode}: {(done.stderr or done.stdout).strip()[-400:]}"
        )
    return parse_npu_smi(done.stdout)


def check_health(device_id: int) -> Npu:
    """The device, or DeviceError saying why it must not be used."""
    npu = npu_smi_info().device(device_id)
    if npu.health != HEALTHY:
        raise DeviceError(f"device {device_id} ({npu.name}) health is {npu.health} in npu-smi info")
    return npu


@contextlib.contextmanager
def exclusive(state_dir: Path, device_id: int) -> Iterator[None]:
    """Hold the device: blocks until no other evaluation (thread or process) uses it."""
    state_dir.mkdir(parents=True, exist_ok=True)
    with (state_dir / f"device{device_id}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def node_groups(patterns: tuple[str, ...] = DEVICE_NODES) -> list[int]:
    """The groups sandbox users need to open the device nodes that exist here: the owning group of
    each node not already open to everyone, except root's group (never handed to a candidate)."""
    groups = set()
    for node in (n for pattern in patterns for n in glob.glob(pattern)):
        info = os.stat(node)
        if info.st_mode & (stat.S_IROTH | stat.S_IWOTH) == stat.S_IROTH | stat.S_IWOTH:
            continue
        if info.st_gid == 0:
            log.warning(
                "sandboxed candidates cannot open %s (group root, mode %o): give it the driver's group",
                node,
                stat.S_IMODE(info.st_mode),
            )
        else:
            groups.add(info.st_gid)
    return sorted(groups)
