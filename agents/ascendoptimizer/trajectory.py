"""The run's trajectory as JSON lines: every evaluation, model call (prompt and reply), diff and
result, in order. Records are kept in memory too (`records`), so a run without an output
directory can still be inspected and compared."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import IO, Any


class Trajectory:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else None
        self.records: list[dict[str, Any]] = []
        self._file: IO[str] | None = None
        self._lock = threading.Lock()  # the bank build writes from several threads
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "w")

    def write(self, kind: str, **fields: Any) -> None:
        with self._lock:
            record = {"seq": len(self.records), "kind": kind, **fields}
            self.records.append(record)
            if self._file is not None:
                self._file.write(json.dumps(record, sort_keys=True, default=str) + "\n")
                self._file.flush()

    def drain(self, proposer: Any, **context: Any) -> None:
        """Move the proposer's logged model calls into the trajectory."""
        while proposer.log:
            self.write("llm_call", **context, **proposer.log.pop(0))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
