"""Record/replay cache of chat completions.

A call is keyed by the sha256 of the canonical JSON of (model, messages, parameters) and by how
many times the run asked that same call before: a sampling model answers a repeated prompt anew
each time (OpenEvolve asks the same prompt again when it samples the same parent), so the n-th
answer to a call is stored and replayed as the n-th. In `record` mode every answer is stored; in
`replay` mode answers come only from the cache and a miss is an error (the run is reproduced
exactly, offline); `auto` replays what it has and records the rest.
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
    """One JSON file per answer under `root/<key[:2]>/`: `<key>.json` for a call's first answer,
    `<key>.<n>.json` for the answer to its n-th repeat (safe for concurrent runs)."""

    def __init__(self, root: str | Path, mode: CacheMode = "auto"):
        self.root = Path(root)
        self.mode = mode

    def _path(self, key: str, repeat: int) -> Path:
        return self.root / key[:2] / (f"{key}.{repeat}.json" if repeat else f"{key}.json")

    @property
    def reads(self) -> bool:
        return self.mode in ("replay", "auto")

    @property
    def writes(self) -> bool:
        return self.mode in ("record", "auto")

    def get(self, key: str, repeat: int = 0) -> dict[str, Any] | None:
        path = self._path(key, repeat)
        if self.reads and path.is_file():
            return json.loads(path.read_text())
        if self.mode == "replay":
            again = f" (repeat {repeat})" if repeat else ""
            raise CacheMiss(f"no recorded reply for call {key[:12]}{again} under {self.root}")
        return None

    def put(self, key: str, entry: dict[str, Any], repeat: int = 0) -> None:
        if not self.writes:
            return
        path = self._path(key, repeat)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a reader never sees half an entry.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(entry, f, sort_keys=True, ensure_ascii=False)
        os.replace(tmp, path)
