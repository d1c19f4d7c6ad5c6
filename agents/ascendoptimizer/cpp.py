"""Small helpers over AscendC C++ text: calls found in code only (comments and strings blanked by
`ascend_gym.rewrites.code_view`), bracket matching and top-level argument splitting."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ascend_gym.rewrites import code_view

_OPEN, _CLOSE = "([{", ")]}"


def matching(view: str, start: int) -> int:
    """Index of the bracket closing the one at `start`, or -1."""
    depth = 0
    for i in range(start, len(view)):
        if view[i] in _OPEN:
            depth += 1
        elif view[i] in _CLOSE:
            depth -= 1
            if depth == 0:
                return i
    return -1


def split_args(text: str) -> list[str]:
    """Split an argument list on commas outside (), [] and {}. Angle brackets are not tracked
    (`a < b` is as common in arguments as a template with two parameters)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


@dataclass(frozen=True)
class Call:
    """A statement `name<...>(args);` in code: [start, end) spans the statement with its `;`."""

    name: str
    start: int
    end: int
    args: list[str]
    indent: str


def calls(source: str, names: tuple[str, ...] | set[str]) -> list[Call]:
    """Statement calls of the given functions, in source order (`AscendC::` prefix allowed)."""
    view = code_view(source)
    pattern = re.compile(
        r"(?<![\w.>:])(?:AscendC::)?("
        + "|".join(map(re.escape, names))
        + r")\s*(?:<[^;()]*>)?\s*\("
    )
    out = []
    for m in pattern.finditer(view):
        close = matching(view, m.end() - 1)
        if close < 0:
            continue
        semi = re.compile(r"\s*;").match(view, close + 1)
        line_start = view.rfind("\n", 0, m.start()) + 1
        if semi is None or view[line_start : m.start()].strip():
            continue  # not a statement of its own (an expression, or after other code on the line)
        out.append(
            Call(
                m.group(1),
                m.start(),
                semi.end(),
                split_args(source[m.end() : close]),
                re.match(r"[ \t]*", source[line_start:]).group(0),
            )
        )
    return out


def base_name(expr: str) -> str:
    """`xLocal[r * n]` -> `xLocal`; `this->x` -> `x`."""
    m = re.match(r"\s*(?:this->)?(\w+)", expr)
    return m.group(1) if m else ""


def declared_as(source: str, name: str, kinds: tuple[str, ...]) -> str | None:
    """The template kind (e.g. "GlobalTensor") `name` is declared with, if any."""
    view = code_view(source)
    for kind in kinds:
        if re.search(rf"\b{kind}\s*<[^;>]*>[^;(){{}}]*\b{re.escape(name)}\b", view):
            return kind
    return None


def unified_diff(before: str, after: str, path: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{path}",
            tofile=f"b/{path}",
            n=2,
        )
    )


def diff_edits(diff: str) -> list[tuple[str, str]]:
    """SEARCH/REPLACE pairs (old lines, new lines, context included) of each hunk of a unified diff."""
    edits, old, new, in_hunk = [], [], [], False
    for line in diff.splitlines():
        if line.startswith("@@"):
            if in_hunk:
                edits.append(("\n".join(old), "\n".join(new)))
            old, new, in_hunk = [], [], True
        elif in_hunk and not line.startswith(("---", "+++")):
            tag, text = line[:1], line[1:]
            if tag in (" ", "-"):
                old.append(text)
            if tag in (" ", "+"):
                new.append(text)
    if in_hunk:
        edits.append(("\n".join(old), "\n".join(new)))
    return edits
