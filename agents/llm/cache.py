"""Record/replay cache of chat completions.

A call is keyed by the sha256 of the canonical JSON of (model, messages, parameters), so the same
prompt under the same sampling parameters always maps to the same entry. In `record` mode every
answer is stored; in `replay` mode answers come only from the cache and a miss is an error (the
run is reproduced exactly, offline); `auto` replays what it has and records the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

CacheMode = Literal["off", "record", "replay", "auto"]


def cache_key(model: str, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    canonical = json.dumps(
        {"model": model, "messages": messages, "params": params},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class CacheMiss(KeyError):
    """Replay mode was asked for a call it never recorded."""


class ReplayCache:
    """One JSON file per entry under `root/<key[:2]>/<key>.json` (safe for concurrent runs)."""

    def __init__(self, root: str | Path, mode: CacheMode = "auto"):
        self.root = Path(root)
        self.mode = mode

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    @property
    def reads(self) -> bool:
        return self.mode in ("replay", "auto")

    @property
    def writes(self) -> bool:
        return self.mode in ("record", "auto")

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        if self.reads and path.is_file():
            return json.loads(path.read_text())
        if self.mode == "replay":
            raise CacheMiss(f"no recorded reply for call {key[:12]} under {self.root}")
        return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        if not self.writes:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a reader never sees half an entry.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(entry, f, sort_keys=True, ensure_ascii=False)
        os.replace(tmp, path)
