"""The CANN backend: builds with the vendor toolchain, checks and times on an Ascend NPU."""

from npu_daemon.backends.cann.backend import CannBackend, CannConfig

__all__ = ["CannBackend", "CannConfig"]
