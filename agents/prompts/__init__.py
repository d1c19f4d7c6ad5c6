"""Prompt templates, one file per prompt and version: `<name>.v<N>.txt`.

A file has a `=== system ===` section and a `=== user ===` section; `$name` placeholders
(string.Template, so C++ braces need no escaping) are filled at render time. The id
`<name>@v<N>` goes into every trajectory record, so a run says which prompt produced each call.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
_SECTION = re.compile(r"^=== (system|user) ===[ \t]*\n", re.MULTILINE)


@dataclass(frozen=True)
class Prompt:
    name: str
    version: int
    system: str
    user: str

    @property
    def id(self) -> str:
        return f"{self.name}@v{self.version}"

    def render(self, **values: object) -> list[dict[str, str]]:
        """Chat messages; every placeholder must be given (a missing one is a bug, not a blank)."""
        fill = {k: str(v) for k, v in values.items()}
        return [
            {"role": "system", "content": string.Template(self.system).substitute(fill).strip()},
            {"role": "user", "content": string.Template(self.user).substitute(fill).strip()},
        ]


@cache
def load(name: str, version: int | None = None) -> Prompt:
    """A prompt by name; the highest version unless one is asked for."""
    found = {
        int(m.group(1)): p
        for p in HERE.glob(f"{name}.v*.txt")
        if (m := re.fullmatch(rf"{name}\.v(\d+)\.txt", p.name))
    }
    if not found:
        raise KeyError(f"no prompt {name!r} under {HERE}")
    v = max(found) if version is None else version
    if v not in found:
        raise KeyError(f"prompt {name!r} has versions {sorted(found)}, not {v}")
    parts = _SECTION.split(found[v].read_text())
    sections = dict(zip(parts[1::2], parts[2::2]))
    if set(sections) != {"system", "user"}:
        raise ValueError(f"{found[v].name}: needs a '=== system ===' and a '=== user ===' section")
    return Prompt(name, v, sections["system"], sections["user"])
