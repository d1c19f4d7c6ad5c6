"""Where builds, test data and a local daemon's state live: `$ASCEND_GYM_CACHE`, else a per-user
cache directory. Root's default is /var/cache/ascend_gym, not ~/.cache under /root: a root daemon
runs candidates as unprivileged sandbox users, who must traverse the cache to reach the simulator
runtime, and /root is not traversable by them."""

from __future__ import annotations

import os
from pathlib import Path

ROOT_DEFAULT = Path("/var/cache/ascend_gym")


def cache_dir() -> Path:
    if configured := os.environ.get("ASCEND_GYM_CACHE"):
        return Path(configured)
    return ROOT_DEFAULT if os.geteuid() == 0 else Path.home() / ".cache" / "ascend_gym"
