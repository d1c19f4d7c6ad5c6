"""The AscendC CPU simulator backend (emulation headers, launch harness, performance model)."""

from npu_daemon.backends.sim.backend import GuestSimBackend, SimBackend

__all__ = ["GuestSimBackend", "SimBackend"]
