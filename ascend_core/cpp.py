"""The C++ source scanner shared by the rewrite catalogue and the agents.

AscendC edits are anchored on code only: `code_view` blanks comments and string/char literals
(positions kept), so a pattern never matches inside a comment. On top of it: bracket matching,
top-level argument splitting, statement calls and declarations, and unified diffs.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

# A comment the text never closes runs to its end and a string to its line's: matched once, where
# each later opener was tried again over the rest (`/*a` 40,000 times, 120 KB: 71 s of a daemon's
# worker). A character literal is at most 16 characters (an unclosed quote, a digit separator's
# `1'000`, is tried over those 16, not the line).
_LITERAL = re.compile(
    r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n]){0,16}\'', re.DOTALL
)
# Sources up to this many characters are cached: a daemon's worker views each candidate's files, so
# a cache of any size held 64 of them past their evaluation (16 MiB each, twice: text and view).
_CACHED_CHARS = 1 << 20
_OPEN, _CLOSE = "([{", ")]}"
_QUALIFIERS = ("const", "override", "noexcept", "final")
_NOT_FUNCTIONS = frozenset("if for while switch catch return sizeof".split())
_LOOP = re.compile(r"\b(?:for|while)\s*\(|\bdo\s*\{")


def code_view(source: str) -> str:
    """`source` with comments and string/char literals replaced by spaces (newlines kept), so
    positions in the view are positions in the source and patterns only match code. Cached up to
    _CACHED_CHARS: the rewrites of one candidate view the same sources again and again."""
    return _cached_view(source) if len(source) <= _CACHED_CHARS else _view(source)


@functools.lru_cache(maxsize=64)
def _cached_view(source: str) -> str:
    return _view(source)


def _view(source: str) -> str:
    return _LITERAL.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)


def matching(view: str, start: int) -> int:
    """Index of the bracket closing the one opening at `start`, or opening the one closing there
    (scanning back); -1 when it is not there."""
    back = view[start] in _CLOSE
    inner, outer = (_CLOSE, _OPEN) if back else (_OPEN, _CLOSE)
    depth = 0
    for i in range(start, -1, -1) if back else range(start, len(view)):
        if view[i] in inner:
            depth += 1
        elif view[i] in outer:
            depth -= 1
            if depth == 0:
                return i
    return -1


def enclosing_brace(view: str, pos: int) -> int:
    """The innermost `{` around `pos`, or -1."""
    depth = 0
    for i in range(pos - 1, -1, -1):
        if view[i] == "}":
            depth += 1
        elif view[i] == "{":
            if depth == 0:
                return i
            depth -= 1
    return -1


def _without_qualifiers(head: str) -> str:
    """`head` without the trailing whitespace and `const` / `override` / `noexcept` / `final`
    words; read from the end only, since `head` is everything before a brace."""
    head = head.rstrip()
    while word := next((w for w in _QUALIFIERS if head.endswith(w)), ""):
        before = head[: -len(word)]
        if before and (before[-1].isalnum() or before[-1] == "_"):
            break  # the end of a longer name (`isconst`), not the qualifier
        head = before.rstrip()
    return head


def is_function_body(view: str, brace: int) -> bool:
    """`{` opens a function's body: `name(...) [const] {`, not a branch, loop or lambda."""
    head = _without_qualifiers(view[:brace])
    if not head.endswith(")"):
        return False
    depth = 0
    for i in range(len(head) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(head[i], 0)
        if depth == 0:
            name = re.search(r"(\w+)\s*$", head[:i])
            return name is not None and name.group(1) not in _NOT_FUNCTIONS
    return False


class Loop(NamedTuple):
    """A for / while / do loop: where its keyword stands, its body's first character (`{` or the
    single statement) and the body's last (`}` or `;`)."""

    head: int
    body: int
    end: int


def loops(view: str, start: int = 0, end: int | None = None) -> list[Loop]:
    """Every loop whose keyword stands in view[start:end], in source order."""
    out = []
    for m in _LOOP.finditer(view, start, len(view) if end is None else end):
        if m.group(0).startswith("do"):
            out.append(Loop(m.start(), m.end() - 1, matching(view, m.end() - 1)))
            continue
        close = matching(view, m.end() - 1)
        if close < 0:
            continue
        after = view[close + 1 :]
        body = close + 1 + len(after) - len(after.lstrip())
        stop = matching(view, body) if view.startswith("{", body) else view.find(";", body)
        out.append(Loop(m.start(), body, stop))
    return out


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


def line_bounds(source: str, start: int, end: int) -> tuple[int, int]:
    """The full line(s) around [start, end), including the trailing newline."""
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    return line_start, len(source) if line_end < 0 else line_end + 1


def indent_at(source: str, pos: int) -> str:
    """The indentation of the line holding `pos`."""
    line_start = source.rfind("\n", 0, pos) + 1
    return re.match(r"[ \t]*", source[line_start:]).group(0)


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
                indent_at(source, m.start()),
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


# The host-side test build's macro: kernels select their CPU unit-test code with it; the device
# compile never defines it.
KT_TEST = "__CCE_KT_TEST__"
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_KT_TEST_COND = re.compile(
    rf"^\s*(!?)\s*(?:defined\s*\(\s*{KT_TEST}\s*\)|defined\s+{KT_TEST}|{KT_TEST})\s*(?://.*|/\*.*)?$"
)


def device_branch(source: str) -> str:
    """`source` with the lines the device compile drops blanked (newlines kept): the branches of
    conditionals on `__CCE_KT_TEST__` alone (`#ifdef`, `#ifndef`, `#if [!]defined(...)`) that
    are taken only when it is defined. Other conditionals are kept whole, both branches."""
    out = []
    # One entry per open conditional: None for one kept whole, else whether its current branch
    # is the device's; `dropped` counts the False ones (linear in the lines however deep they nest:
    # the daemon's worker reads a candidate's kernel with this).
    stack: list[bool | None] = []
    dropped = 0
    for line in source.split("\n"):
        d = _DIRECTIVE.match(line)
        live = dropped == 0
        if d is None:
            out.append(line if live else "")
            continue
        kind, rest = d[1], d[2]
        on_kt_test = bool(stack) and stack[-1] is not None and kind not in ("if", "ifdef", "ifndef")
        if kind in ("if", "ifdef", "ifndef"):
            if kind == "if":
                m = _KT_TEST_COND.match(rest)
                state = None if m is None else bool(m[1])
            else:
                state = (kind == "ifndef") if rest.split()[:1] == [KT_TEST] else None
            stack.append(state)
            dropped += state is False
            on_kt_test = state is not None
        elif kind in ("else", "elif") and on_kt_test:
            stack[-1] = not stack[-1]  # an #elif after the test build's branch: assumed taken
            dropped += 1 if stack[-1] is False else -1
        elif kind == "endif" and stack:
            dropped -= stack.pop() is False
        out.append(line if live and not on_kt_test else "")
    return "\n".join(out)
