"""The AscendC CPU simulator backend (emulation headers, launch harness, performance model)."""

from npu_daemon.backends.sim.backend import SimBackend

__all__ = ["SimBackend"]
